/*
 * drv.h - the driver seam: every call netd makes to a NIC driver or a PTP
 * hardware clock goes through one ops table.
 *
 * The real table (drv_kernel) does the ioctls and clock_adjtime(); unit
 * tests install a fake (tests/unit/drv_fake.c) that answers as recorded
 * drivers do, so PHC discovery, the SIOCSHWTSTAMP dialogue and PHC
 * adjustment are tested on a machine without a PHC (doc/design.md).
 * Each op returns 0 or -errno and fills its argument as the kernel would.
 * The structs are those of the build's linux headers (6.1 ABI).
 */
#ifndef PTPSEP_NETD_DRV_H
#define PTPSEP_NETD_DRV_H

#include <stddef.h>
#include <sys/timex.h>
#include <time.h>
#include <linux/ethtool.h>
#include <linux/net_tstamp.h>
#include <linux/ptp_clock.h>

struct drv_ops {
	/* ETHTOOL_GET_TS_INFO: time stamping capabilities and PHC index. */
	int	(*ts_info)(const char *ifname, struct ethtool_ts_info *);
	/* ETHTOOL_GDRVINFO's driver name, for messages only. */
	int	(*drv_name)(const char *ifname, char *buf, size_t len);
	/* SIOCGHWTSTAMP / SIOCSHWTSTAMP through socket fd; set updates
	 * the config with what the driver really programmed. */
	int	(*hwts_get)(int fd, const char *ifname,
		    struct hwtstamp_config *);
	int	(*hwts_set)(int fd, const char *ifname,
		    struct hwtstamp_config *);
	/* PTP_CLOCK_GETCAPS on an open /dev/ptpN. */
	int	(*phc_caps)(int fd, struct ptp_clock_caps *);
	/* PTP_SYS_OFFSET_PRECISE, _EXTENDED and the basic PTP_SYS_OFFSET. */
	int	(*sysoff_precise)(int fd, struct ptp_sys_offset_precise *);
	int	(*sysoff_extended)(int fd, struct ptp_sys_offset_extended *);
	int	(*sysoff_basic)(int fd, struct ptp_sys_offset *);
	/* clock_adjtime() on a PHC's dynamic clock id (or CLOCK_REALTIME). */
	int	(*adjtime)(clockid_t, struct timex *);
	/* clock_getres(), which fails on a character device not a PHC. */
	int	(*getres)(clockid_t, struct timespec *);
};

extern const struct drv_ops drv_kernel;

/* The table in use: drv_kernel unless a test installed another. */
const struct drv_ops *drv(void);
/* For tests only: installs ops (NULL: back to drv_kernel). */
void	drv_set(const struct drv_ops *);

#endif /* PTPSEP_NETD_DRV_H */
