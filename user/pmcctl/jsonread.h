/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading pmcctl's own JSON lines back (report's merge.c, plot's plot.c):
 * json-c's lookups by key and type, and the error message of a reader.
 */
#ifndef PMCDRV_PMCCTL_JSONREAD_H
#define PMCDRV_PMCCTL_JSONREAD_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

/* @o's member @key, NULL when it has none. */
json_object *jr_get(json_object *o, const char *key);
/* A string member; NULL when absent or of another type. */
const char *jr_str(json_object *o, const char *key);
/* A number member (integer or not) into *out; false when absent or of another type. */
bool jr_num(json_object *o, const char *key, double *out);
/* An integer member; -1 when absent or of another type. */
int jr_int(json_object *o, const char *key);

/* Print the message into @err and return @ret. */
int jr_fail(char *err, size_t errlen, int ret, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif /* PMCDRV_PMCCTL_JSONREAD_H */
