// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv: raw access to Intel architectural performance counters.
 *
 * This file is the char-device layer: /dev/pmcdrv and its ioctl ABI
 * (include/uapi/linux/pmcdrv.h, docs/abi.md).  It validates every request
 * and delegates hardware work to hw.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/pmcdrv.h>

#include "hw.h"
#include "internal.h"
#include "session.h"

static ushort devmode = 0600;
module_param(devmode, ushort, 0444);
MODULE_PARM_DESC(devmode, "permissions of /dev/pmcdrv (default 0600)");

/* Read-only after module init. */
static struct pmcd_hw_caps pmcd_caps;

static_assert(sizeof(struct pmcdrv_info) == PMCDRV_INFO_SIZE_VER0);
static_assert(sizeof(struct pmcdrv_config) == PMCDRV_CONFIG_SIZE_VER1);
static_assert(offsetof(struct pmcdrv_config, events) == PMC_CONFIG_HDR_SIZE);
static_assert(sizeof(struct pmcdrv_event) == PMCDRV_EVENT_SIZE_VER1);
static_assert(offsetof(struct pmcdrv_event, extra) == PMCDRV_EVENT_SIZE_VER0);
static_assert(sizeof(struct pmcdrv_attach) == PMCDRV_ATTACH_SIZE_VER0);
static_assert(sizeof(struct pmcdrv_read) == PMCDRV_READ_SIZE_VER1);
static_assert(offsetof(struct pmcdrv_read_types, time_running) == PMCDRV_READ_SIZE_VER2);
static_assert(sizeof(struct pmcdrv_read_types) == PMCDRV_READ_SIZE_VER3);
static_assert(sizeof(struct pmcdrv_session_info) == PMCDRV_SESSION_INFO_SIZE_VER0);
static_assert(sizeof(struct pmcdrv_sessions) == PMCDRV_SESSIONS_SIZE_VER0);
static_assert(sizeof(struct pmcdrv_revoke) == PMCDRV_REVOKE_SIZE_VER0);
/* READ's reply is probed at its two ends only: it must fit in a page. */
static_assert(sizeof(struct pmcdrv_read) < PAGE_SIZE);
static_assert(offsetof(struct pmcdrv_read, times) == PMCDRV_READ_SIZE_VER0 +
	      (PMCDRV_MAX_EVENTS - PMCDRV_MAX_EVENTS_VER0) * sizeof(__u64));

/*
 * Copy a size-versioned struct in: the caller's 'size' is its first u32.
 * EINVAL below VER0; E2BIG past a page or with non-zero bytes past our
 * layout.  Returns the caller's size (> 0) or -errno.
 */
static long pmcd_copy_struct_in(void *kbuf, size_t ksize, size_t ver0,
				const void __user *uarg)
{
	u32 usize;
	int err;

	if (get_user(usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (usize < ver0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	err = copy_struct_from_user(kbuf, ksize, uarg, usize);
	if (err)
		return err;
	return usize;
}

/*
 * Copy a size-versioned struct out: its 'size' becomes the kernel's, and
 * min(caller's size, kernel's size) bytes are written.
 */
static long pmcd_copy_struct_out(void __user *uarg, void *kbuf, u32 ksize, long usize)
{
	memcpy(kbuf, &ksize, sizeof(ksize));
	if (copy_to_user(uarg, kbuf, min_t(size_t, usize, ksize)))
		return -EFAULT;
	return 0;
}

static long pmcd_ioctl_info(void __user *uarg)
{
	struct pmcdrv_info info;
	struct pmcd_hw_usage usage;
	bool claimed;
	long usize;

	usize = pmcd_copy_struct_in(&info, sizeof(info), PMCDRV_INFO_SIZE_VER0, uarg);
	if (usize < 0)
		return usize;
	/* hw_faults and probe_registrations are output only: not checked. */
	if (info.reserved0 || memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;

	pmcd_sessions_hw_usage(&usage, &claimed);

	pmc_info_from_desc(&pmcd_caps.cpu, &info);
	/* PDCM in a reply means "perf_capabilities is valid": the MSR read worked. */
	info.flags = pmcd_caps.flags;
	if (usage.global_inuse)
		info.flags |= PMCDRV_INFO_GLOBAL_INUSE;
	if (claimed)
		info.flags |= PMCDRV_INFO_CLAIMED;
	info.nr_cpus = usage.nr_cpus;
	info.perf_capabilities = pmcd_caps.perf_capabilities;
	info.in_use_hw = usage.in_use_hw;
	info.in_use_reserved = usage.in_use_reserved;
	info.hw_faults = atomic64_read(&pmcd_hw_faults);
	if (info.hw_faults)
		info.flags |= PMCDRV_INFO_HW_FAULTS;
	info.probe_registrations = pmcd_probes_registrations();
	return pmcd_copy_struct_out(uarg, &info, sizeof(info), usize);
}

struct pmcd_config_out {
	void __user *uarg;
	u32 stride;		/* the caller's event size */
	u32 slots;		/* entries of its events[] */
};

/* The caller's event @i. */
static void __user *pmcd_config_uevent(const struct pmcd_config_out *out, u32 i)
{
	return out->uarg + PMC_CONFIG_HDR_SIZE + (size_t)i * out->stride;
}

/*
 * CONFIG's result goes to the caller before the session commits to it, in
 * the caller's layout: the header (size = the kernel's) and, per event of
 * its events[] the kernel knows, min(its event size, ours) bytes.
 */
static int pmcd_config_publish(const struct pmcdrv_config *cfg, void *arg)
{
	const struct pmcd_config_out *out = arg;
	u32 i, len = min_t(u32, out->stride, sizeof(struct pmcdrv_event));
	u8 hdr[PMC_CONFIG_HDR_SIZE];	/* not a whole struct on the stack */
	u32 ksize = sizeof(*cfg);

	memcpy(hdr, cfg, PMC_CONFIG_HDR_SIZE);
	memcpy(hdr + offsetof(struct pmcdrv_config, size), &ksize, sizeof(ksize));
	if (copy_to_user(out->uarg, hdr, PMC_CONFIG_HDR_SIZE))
		return -EFAULT;
	for (i = 0; i < min_t(u32, out->slots, PMCDRV_MAX_EVENTS); i++) {
		if (copy_to_user(pmcd_config_uevent(out, i), &cfg->events[i], len))
			return -EFAULT;
	}
	return 0;
}

/*
 * CONFIG in the caller's layout (pmc_config_layout): each event as
 * copy_struct_from_user() copies a struct (a shorter event is zero-extended;
 * bytes past ours must be zero, E2BIG), and the entries past the kernel's
 * PMCDRV_MAX_EVENTS, and any tail shorter than an event, must be zero (E2BIG).
 */
static long pmcd_ioctl_config(struct pmcd_session *s, void __user *uarg)
{
	struct pmcdrv_config *cfg;
	struct pmcd_config_out out = { .uarg = uarg };
	size_t end;
	u32 i, n;
	long err;

	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	err = -EFAULT;
	if (copy_from_user(cfg, uarg, PMC_CONFIG_HDR_SIZE))
		goto out_free;
	err = pmc_config_layout(cfg->size, cfg->event_size, &out.stride, &out.slots);
	if (err)
		goto out_free;
	err = -EINVAL;
	if (cfg->nr_events > out.slots)
		goto out_free;
	n = min_t(u32, out.slots, PMCDRV_MAX_EVENTS);
	for (i = 0; i < n; i++) {
		err = copy_struct_from_user(&cfg->events[i], sizeof(cfg->events[i]),
					    pmcd_config_uevent(&out, i), out.stride);
		if (err)
			goto out_free;
	}
	/* Whatever the kernel has no room for: zero or E2BIG. */
	end = PMC_CONFIG_HDR_SIZE + (size_t)n * out.stride;
	err = check_zeroed_user(uarg + end, cfg->size - end);
	if (err <= 0) {
		err = err ? err : -E2BIG;
		goto out_free;
	}
	err = pmcd_session_config(s, cfg, pmcd_config_publish, &out);
out_free:
	kfree(cfg);
	return err;
}

static long pmcd_ioctl_attach(struct pmcd_session *s, void __user *uarg)
{
	struct pmcdrv_attach a;
	long usize;

	usize = pmcd_copy_struct_in(&a, sizeof(a), PMCDRV_ATTACH_SIZE_VER0, uarg);
	if (usize < 0)
		return usize;
	if (a.reserved1 || a.pid < 0 ||
	    (a.flags & ~(PMCDRV_ATTACH_ENABLE_ON_EXEC | PMCDRV_ATTACH_CPU |
			 PMCDRV_ATTACH_CGROUP)))
		return -EINVAL;
	if (a.flags & PMCDRV_ATTACH_CGROUP) {
		s32 fds[PMCDRV_MAX_CGROUPS];

		if (!(a.flags & PMCDRV_ATTACH_CPU) || a.pid ||
		    (a.flags & PMCDRV_ATTACH_ENABLE_ON_EXEC) || !a.nr_cgroups ||
		    a.nr_cgroups > PMCDRV_MAX_CGROUPS)
			return -EINVAL;
		if (copy_from_user(fds, u64_to_user_ptr(a.cgroup_fds),
				   a.nr_cgroups * sizeof(fds[0])))
			return -EFAULT;
		return pmcd_session_attach_cgroups(s, a.cpu, fds, a.nr_cgroups);
	}
	if (a.cgroup_fds || a.nr_cgroups)
		return -EINVAL;
	if (a.flags & PMCDRV_ATTACH_CPU) {
		if (a.pid || (a.flags & PMCDRV_ATTACH_ENABLE_ON_EXEC))
			return -EINVAL;
		return pmcd_session_attach_cpu(s, a.cpu);
	}
	if (a.cpu)
		return -EINVAL;
	return pmcd_session_attach(s, a.pid, a.flags & PMCDRV_ATTACH_ENABLE_ON_EXEC);
}

/*
 * Copy out READ's reply of @len bytes in one user-access window (as
 * fs/readdir.c's filldir() stores its records), without copy_to_user()'s
 * call and string copy.  A length of whole 64-byte blocks, as both
 * layouts' (PMCDRV_READ_SIZE_VER0 and _VER1), goes out a block an
 * iteration, eight 8-byte stores; any other 8 bytes an iteration
 * (unsafe_copy_to_user(), three times the instructions).
 */
static __always_inline long pmcd_read_copy_out(void __user *uarg, const struct pmcdrv_read *r,
					       u32 len)
{
	const u64 *src = (const u64 *)r;
	u64 __user *dst = uarg;

	if (!user_write_access_begin(uarg, len))
		return -EFAULT;
	if (len % 64) {
		unsafe_copy_to_user(uarg, (const char *)r, len, efault);
	} else {
		for (; len; len -= 64, src += 8, dst += 8) {
			unsafe_put_user(src[0], &dst[0], efault);
			unsafe_put_user(src[1], &dst[1], efault);
			unsafe_put_user(src[2], &dst[2], efault);
			unsafe_put_user(src[3], &dst[3], efault);
			unsafe_put_user(src[4], &dst[4], efault);
			unsafe_put_user(src[5], &dst[5], efault);
			unsafe_put_user(src[6], &dst[6], efault);
			unsafe_put_user(src[7], &dst[7], efault);
		}
	}
	user_write_access_end();
	return 0;
efault:
	user_write_access_end();
	return -EFAULT;
}

enum pmcd_read_kind {
	PMCD_READ,		/* the session's counts */
	PMCD_READ_SELF,		/* the calling thread's own */
	PMCD_READ_CGROUP,	/* one cgroup's of a cgroup session */
};

/* Fill READ's reply @r, of which the caller takes @len bytes (cleared). */
static __always_inline int pmcd_read_fill(struct pmcd_session *s, struct pmcdrv_read *r, u32 len,
					  u64 cgroup, enum pmcd_read_kind kind)
{
	bool self = kind == PMCD_READ_SELF;
	unsigned int i;
	int err;

	if (kind == PMCD_READ_CGROUP)
		err = cgroup < PMCDRV_MAX_CGROUPS ?
		      pmcd_session_read_cgroup(s, cgroup, r) : -EINVAL;
	else
		err = self ? pmcd_self_read(s, r) : pmcd_session_read(s, r);
	if (err)
		return err;
	/* READ fills times[]; a thread's own events count whenever it does. */
	for (i = 0; self && len > offsetof(struct pmcdrv_read, times) && i < r->nr_events &&
	     i < PMCDRV_MAX_EVENTS; i++) {
		r->times[i].time_enabled = r->time_enabled;
		r->times[i].time_running = r->time_running;
	}
	return 0;
}

/*
 * Fill and copy out READ's reply of @len bytes.  Always inlined so that the
 * two sizes callers use, PMCDRV_READ_SIZE_VER0 and _VER1, reach memset()
 * and pmcd_read_copy_out() as constants: then the clearing is a few stores
 * and the copy a loop of known length.
 */
static __always_inline long pmcd_read_reply(struct pmcd_session *s, void __user *uarg,
					    struct pmcdrv_read *r, u32 len, u64 cgroup,
					    enum pmcd_read_kind kind)
{
	int err;

	memset(r, 0, len);
	err = pmcd_read_fill(s, r, len, cgroup, kind);
	if (err)
		return err;
	r->size = sizeof(*r);
	return pmcd_read_copy_out(uarg, r, len);
}

/*
 * READ in a length between the two layouts' (a caller's own struct size):
 * pmcd_read_reply() out of line, so its copy of any length does not add to
 * pmcd_ioctl_read()'s frame, which holds the reply.
 */
static noinline long pmcd_read_reply_len(struct pmcd_session *s, void __user *uarg,
					 struct pmcdrv_read *r, u32 len, u64 cgroup,
					 enum pmcd_read_kind kind)
{
	return pmcd_read_reply(s, uarg, r, len, cgroup, kind);
}

/*
 * READ in a layout longer than struct pmcdrv_read (struct
 * pmcdrv_read_types, the split by core type): built in a heap copy, as it
 * is too large for the ioctl's stack.
 */
static noinline long pmcd_read_types_reply(struct pmcd_session *s, void __user *uarg, u32 len,
					   u64 cgroup, enum pmcd_read_kind kind)
{
	struct pmcdrv_read_types *rt;
	long err;

	rt = kzalloc(sizeof(*rt), GFP_KERNEL);
	if (!rt)
		return -ENOMEM;
	if (kind == PMCD_READ)
		err = pmcd_session_read_types(s, rt);
	else
		err = pmcd_read_fill(s, &rt->read, sizeof(rt->read), cgroup, kind);
	if (!err) {
		rt->read.size = sizeof(*rt);
		if (copy_to_user(uarg, rt, len))
			err = -EFAULT;
	}
	kfree(rt);
	return err;
}

/*
 * READ's input after its size: the cgroup and reserved words, and a probe
 * of the last of the @len bytes the reply takes, in one user-access window
 * (one access check, not a get_user() call and window for each).
 */
static __always_inline int pmcd_read_args(const struct pmcdrv_read __user *ur, u32 len,
					  u64 *cgroup, u64 *reserved)
{
	u8 last __maybe_unused;	/* a probe */

	if (!user_read_access_begin(ur, len))
		return -EFAULT;
	unsafe_get_user(*cgroup, &ur->cgroup, efault);
	unsafe_get_user(*reserved, &ur->reserved[0], efault);
	unsafe_get_user(last, (const u8 __user *)ur + len - 1, efault);
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/*
 * READ, READ_SELF (the calling thread's own counts) or READ_CGROUP (one
 * cgroup's of a cgroup session: @kind).  The input is the header's size,
 * cgroup and reserved words alone (everything else is output), so only
 * those are read in; what goes back out, min(size, ours), must be accessible
 * before anything is done (EFAULT): it is shorter than a page, so its last
 * byte's page is the only other one to probe.  Only what goes back out is
 * cleared, filled and copied: a caller of the first layout moves 192 bytes,
 * not 832.  So the reply is not cleared at its declaration either
 * (__uninitialized: the kernel's CONFIG_INIT_STACK_ALL_ZERO would zero all
 * 832 bytes on every READ); nothing past @len is read or copied out.
 */
static long pmcd_ioctl_read(struct pmcd_session *s, void __user *uarg, enum pmcd_read_kind kind)
{
	struct pmcdrv_read __user *ur = uarg;
	struct pmcdrv_read r __uninitialized;
	u64 cgroup, reserved;
	u32 usize, len;
	int err;

	BUILD_BUG_ON(sizeof(r.reserved) != sizeof(reserved));

	if (get_user(usize, &ur->size))
		return -EFAULT;
	if (usize < PMCDRV_READ_SIZE_VER0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	if (usize > sizeof(struct pmcdrv_read_types)) {
		err = check_zeroed_user(uarg + sizeof(struct pmcdrv_read_types),
					usize - sizeof(struct pmcdrv_read_types));
		if (err <= 0)
			return err ? err : -E2BIG;
	}
	len = min_t(u32, usize, sizeof(struct pmcdrv_read_types));
	if (pmcd_read_args(ur, len, &cgroup, &reserved))
		return -EFAULT;
	if (reserved || (cgroup && kind != PMCD_READ_CGROUP))
		return -EINVAL;
	if (len == PMCDRV_READ_SIZE_VER0)
		return pmcd_read_reply(s, uarg, &r, PMCDRV_READ_SIZE_VER0, cgroup, kind);
	if (len == PMCDRV_READ_SIZE_VER1)
		return pmcd_read_reply(s, uarg, &r, PMCDRV_READ_SIZE_VER1, cgroup, kind);
	if (len > sizeof(r))
		return pmcd_read_types_reply(s, uarg, len, cgroup, kind);
	return pmcd_read_reply_len(s, uarg, &r, len, cgroup, kind);
}

/*
 * SESSIONS: describe up to nr_entries sessions into the caller's array, in
 * its entry size (zeros past the kernel's layout), and say how many there
 * are.  The descriptions are taken first, then copied out with no lock held.
 */
static long pmcd_ioctl_sessions(void __user *uarg)
{
	struct pmcdrv_session_info *buf = NULL;
	struct pmcdrv_sessions req;
	unsigned int i, n, nr;
	void __user *dst;
	long usize;
	int err;

	usize = pmcd_copy_struct_in(&req, sizeof(req), PMCDRV_SESSIONS_SIZE_VER0, uarg);
	if (usize < 0)
		return usize;
	if (memchr_inv(req.reserved, 0, sizeof(req.reserved)) ||
	    (req.nr_entries && req.entry_size < PMCDRV_SESSION_INFO_SIZE_VER0) ||
	    req.entry_size > PAGE_SIZE)
		return -EINVAL;
	n = min(req.nr_entries, pmcd_sessions_list(NULL, 0));
	if (n) {
		buf = kvcalloc(n, sizeof(*buf), GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}
	nr = pmcd_sessions_list(buf, n);
	n = min(n, nr);
	dst = u64_to_user_ptr(req.entries);
	for (i = 0; i < n; i++, dst += req.entry_size) {
		err = -EFAULT;
		if (copy_to_user(dst, &buf[i], sizeof(buf[i])) ||
		    clear_user(dst + sizeof(buf[i]), req.entry_size - sizeof(buf[i])))
			goto out_free;
	}
	req.nr_sessions = nr;
	err = pmcd_copy_struct_out(uarg, &req, sizeof(req), usize);
out_free:
	kvfree(buf);
	return err;
}

static long pmcd_ioctl_revoke(void __user *uarg)
{
	struct pmcdrv_revoke req;
	long usize;

	usize = pmcd_copy_struct_in(&req, sizeof(req), PMCDRV_REVOKE_SIZE_VER0, uarg);
	if (usize < 0)
		return usize;
	if (req.flags || memchr_inv(req.reserved, 0, sizeof(req.reserved)))
		return -EINVAL;
	return pmcd_session_revoke(req.id);
}

/* The size bits of a command are ignored: the struct's own 'size' field rules. */
#define PMC_IOC_CMD(cmd)	((cmd) & ~IOCSIZE_MASK)

/* Every command but the reads of pmcd_ioctl(). */
static noinline long pmcd_ioctl_cmd(struct pmcd_session *s, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	switch (PMC_IOC_CMD(cmd)) {
	case PMC_IOC_CMD(PMCDRV_IOC_API_VERSION):
		return PMCDRV_API_VERSION;
	case PMC_IOC_CMD(PMCDRV_IOC_INFO):
		return pmcd_ioctl_info(uarg);
	case PMC_IOC_CMD(PMCDRV_IOC_CONFIG):
		return pmcd_ioctl_config(s, uarg);
	case PMC_IOC_CMD(PMCDRV_IOC_ATTACH):
		return pmcd_ioctl_attach(s, uarg);
	case PMC_IOC_CMD(PMCDRV_IOC_READ_CGROUP):
		return pmcd_ioctl_read(s, uarg, PMCD_READ_CGROUP);
	case PMC_IOC_CMD(PMCDRV_IOC_ENABLE):
		return arg ? -EINVAL : pmcd_session_enable(s);
	case PMC_IOC_CMD(PMCDRV_IOC_DISABLE):
		return arg ? -EINVAL : pmcd_session_disable(s);
	case PMC_IOC_CMD(PMCDRV_IOC_RESET):
		return arg ? -EINVAL : pmcd_session_reset(s);
	case PMC_IOC_CMD(PMCDRV_IOC_SESSIONS):
		return pmcd_ioctl_sessions(uarg);
	case PMC_IOC_CMD(PMCDRV_IOC_REVOKE):
		return pmcd_ioctl_revoke(uarg);
	default:
		return -ENOTTY;
	}
}

/*
 * READ and READ_SELF, the calls made in loops, go straight to their
 * handler, before the switch of every other command (out of line: its
 * inlined handlers' registers and stack are not set up for a read).
 */
static long pmcd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pmcd_session *s = file->private_data;

	if (PMC_IOC_CMD(cmd) == PMC_IOC_CMD(PMCDRV_IOC_READ))
		return pmcd_ioctl_read(s, (void __user *)arg, PMCD_READ);
	if (PMC_IOC_CMD(cmd) == PMC_IOC_CMD(PMCDRV_IOC_READ_SELF))
		return pmcd_ioctl_read(s, (void __user *)arg, PMCD_READ_SELF);
	return pmcd_ioctl_cmd(s, cmd, arg);
}

static int pmcd_open(struct inode *inode, struct file *file)
{
	file->private_data = pmcd_session_create(file_inode(file)->i_gid);
	return file->private_data ? 0 : -ENOMEM;
}

static int pmcd_release(struct inode *inode, struct file *file)
{
	pmcd_session_close(file->private_data);
	return 0;
}

static int pmcd_mmap(struct file *file, struct vm_area_struct *vma)
{
	return pmcd_self_mmap(file->private_data, vma);
}

static const struct file_operations pmcd_fops = {
	.owner		= THIS_MODULE,
	.open		= pmcd_open,
	.release	= pmcd_release,
	.unlocked_ioctl	= pmcd_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= pmcd_mmap,
	.llseek		= noop_llseek,
};

static struct miscdevice pmcd_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= PMCDRV_DEVICE_NAME,
	.fops	= &pmcd_fops,
};

static int __init pmcdrv_init(void)
{
	int err;

	pmcd_hw_probe(&pmcd_caps);
	if (pmcd_caps.flags & PMCDRV_INFO_ARCH_PERFMON)
		pr_info("architectural perfmon v%u: %u GP counters of %u bits, %u fixed of %u bits%s\n",
			pmcd_caps.cpu.pm.version, pmcd_caps.cpu.pm.num_gp,
			pmcd_caps.cpu.pm.gp_width,
			pmcd_caps.cpu.pm.num_fixed, pmcd_caps.cpu.pm.fixed_width,
			pmcd_caps.cpu.pm.hybrid ?
			" (hybrid CPU: those every core type has; architectural events only)" : "");
	else if (pmcd_caps.cpu.vendor != PMCDRV_VENDOR_INTEL)
		pr_info("not an Intel CPU (vendor %.12s): no hardware counters, only software events are available\n",
			(const char *)pmcd_caps.cpu.vendor_id);
	else
		pr_info("%s: no hardware counters, only software events are available\n",
			pmc_decode_strerror(pmcd_caps.cpu.decode_err));

	err = pmcd_sessions_init(&pmcd_caps);
	if (err)
		return err;
	pmcd_miscdev.mode = devmode;
	err = misc_register(&pmcd_miscdev);
	if (err) {
		pr_err("cannot register /dev/%s: %d\n", PMCDRV_DEVICE_NAME, err);
		goto err_sessions_exit;
	}
	return 0;

err_sessions_exit:
	pmcd_sessions_exit();
	return err;
}

static void __exit pmcdrv_exit(void)
{
	misc_deregister(&pmcd_miscdev);
	pmcd_sessions_exit();
}

module_init(pmcdrv_init);
module_exit(pmcdrv_exit);

MODULE_DESCRIPTION("Raw access to Intel architectural performance counters");
MODULE_AUTHOR("pmcdrv developers");
MODULE_LICENSE("GPL");
