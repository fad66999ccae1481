// SPDX-License-Identifier: GPL-2.0
/* Reading pmcctl's own JSON lines back: lookups by key and type. */
#include <stdarg.h>
#include <stdio.h>

#include "jsonread.h"

json_object *jr_get(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *jr_str(json_object *o, const char *key)
{
	json_object *v = jr_get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

bool jr_num(json_object *o, const char *key, double *out)
{
	json_object *v = jr_get(o, key);

	if (!v || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return true;
}

int jr_int(json_object *o, const char *key)
{
	json_object *v = jr_get(o, key);

	return v && json_object_is_type(v, json_type_int) ? (int)json_object_get_int64(v) : -1;
}

int jr_fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}
