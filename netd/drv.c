/*
 * drv.c - the driver seam's real table: the ioctls and clock calls
 * themselves (drv.h).  Nothing here decides anything.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <net/if.h>
#include <linux/sockios.h>

#include "drv.h"

static const struct drv_ops *drv_cur = &drv_kernel;

const struct drv_ops *
drv(void)
{
	return drv_cur;
}

void
drv_set(const struct drv_ops *ops)
{
	drv_cur = ops != NULL ? ops : &drv_kernel;
}

/* SIOCETHTOOL needs a socket of any family; a datagram one needs no
 * privilege, so a port re-created after the privilege drop still works. */
static int
drv_ethtool(const char *ifname, void *cmd)
{
	struct ifreq ifr;
	int fd, err = 0;

	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -EINVAL;
	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	if (ioctl(fd, SIOCETHTOOL, &ifr) == -1)
		err = -errno;
	close(fd);
	return err;
}

static int
drv_k_ts_info(const char *ifname, struct ethtool_ts_info *ti)
{
	memset(ti, 0, sizeof(*ti));
	ti->cmd = ETHTOOL_GET_TS_INFO;
	return drv_ethtool(ifname, ti);
}

static int
drv_k_drv_name(const char *ifname, char *buf, size_t len)
{
	struct ethtool_drvinfo di;
	int err;

	memset(&di, 0, sizeof(di));
	di.cmd = ETHTOOL_GDRVINFO;
	if ((err = drv_ethtool(ifname, &di)) != 0)
		return err;
	snprintf(buf, len, "%.*s", (int)sizeof(di.driver), di.driver);
	return 0;
}

static int
drv_k_hwts(int fd, const char *ifname, struct hwtstamp_config *cfg,
    unsigned long req)
{
	struct ifreq ifr;

	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -EINVAL;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (char *)cfg;
	if (ioctl(fd, req, &ifr) == -1)
		return -errno;
	return 0;
}

static int
drv_k_hwts_get(int fd, const char *ifname, struct hwtstamp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	return drv_k_hwts(fd, ifname, cfg, SIOCGHWTSTAMP);
}

static int
drv_k_hwts_set(int fd, const char *ifname, struct hwtstamp_config *cfg)
{
	return drv_k_hwts(fd, ifname, cfg, SIOCSHWTSTAMP);
}

static int
drv_k_phc_caps(int fd, struct ptp_clock_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	return ioctl(fd, PTP_CLOCK_GETCAPS, caps) == -1 ? -errno : 0;
}

static int
drv_k_sysoff_precise(int fd, struct ptp_sys_offset_precise *p)
{
	memset(p, 0, sizeof(*p));
	return ioctl(fd, PTP_SYS_OFFSET_PRECISE, p) == -1 ? -errno : 0;
}

/* n_samples is the caller's; the rest is the kernel's answer. */
static int
drv_k_sysoff_extended(int fd, struct ptp_sys_offset_extended *p)
{
	return ioctl(fd, PTP_SYS_OFFSET_EXTENDED, p) == -1 ? -errno : 0;
}

static int
drv_k_sysoff_basic(int fd, struct ptp_sys_offset *p)
{
	return ioctl(fd, PTP_SYS_OFFSET, p) == -1 ? -errno : 0;
}

static int
drv_k_adjtime(clockid_t id, struct timex *tx)
{
	return clock_adjtime(id, tx) < 0 ? -errno : 0;
}

static int
drv_k_getres(clockid_t id, struct timespec *res)
{
	return clock_getres(id, res) != 0 ? -errno : 0;
}

const struct drv_ops drv_kernel = {
	.ts_info = drv_k_ts_info,
	.drv_name = drv_k_drv_name,
	.hwts_get = drv_k_hwts_get,
	.hwts_set = drv_k_hwts_set,
	.phc_caps = drv_k_phc_caps,
	.sysoff_precise = drv_k_sysoff_precise,
	.sysoff_extended = drv_k_sysoff_extended,
	.sysoff_basic = drv_k_sysoff_basic,
	.adjtime = drv_k_adjtime,
	.getres = drv_k_getres,
};
