/*
 * drv_fake.c - the fake driver seam (drv_fake.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drv_fake.h"

static const struct drv_fake_if *fake_ifs;
static size_t fake_nifs;
static struct drv_fake_phc *fake_phc;

static const struct drv_fake_if *
fake_find(const char *ifname)
{
	size_t i;

	for (i = 0; i < fake_nifs; i++)
		if (strcmp(fake_ifs[i].ifname, ifname) == 0)
			return &fake_ifs[i];
	return NULL;
}

static int
fake_ts_info(const char *ifname, struct ethtool_ts_info *ti)
{
	const struct drv_fake_if *f = fake_find(ifname);

	if (f == NULL)
		return -ENODEV;
	if (f->ts_err != 0)
		return f->ts_err;
	*ti = f->ts;
	ti->cmd = ETHTOOL_GET_TS_INFO;
	return 0;
}

static int
fake_drv_name(const char *ifname, char *buf, size_t len)
{
	const struct drv_fake_if *f = fake_find(ifname);

	if (f == NULL)
		return -ENODEV;
	snprintf(buf, len, "%s", f->driver);
	return 0;
}

static int
fake_hwts_get(int fd, const char *ifname, struct hwtstamp_config *cfg)
{
	(void)fd;
	(void)ifname;
	memset(cfg, 0, sizeof(*cfg));
	return -EOPNOTSUPP;
}

static int
fake_hwts_set(int fd, const char *ifname, struct hwtstamp_config *cfg)
{
	const struct drv_fake_if *f = fake_find(ifname);

	(void)fd;
	if (fake_phc != NULL) {
		fake_phc->hwts_calls++;
		fake_phc->hwts_asked = *cfg;
	}
	if (f == NULL)
		return -ENODEV;
	if (f->hwts_err != 0)
		return f->hwts_err;
	if (cfg->tx_type < 0 || cfg->tx_type >= 32 ||
	    !(f->ts.tx_types & (1u << cfg->tx_type)))
		return -ERANGE;
	if (f->hwts_tx_on)
		cfg->tx_type = HWTSTAMP_TX_ON;
	if (f->hwts_rx >= 0)
		cfg->rx_filter = f->hwts_rx;
	return 0;
}

static int
fake_phc_caps(int fd, struct ptp_clock_caps *caps)
{
	(void)fd;
	if (fake_phc == NULL)
		return -ENOTTY;
	if (fake_phc->caps_err != 0)
		return fake_phc->caps_err;
	*caps = fake_phc->caps;
	return 0;
}

static int
fake_sysoff_precise(int fd, struct ptp_sys_offset_precise *p)
{
	(void)fd;
	if (fake_phc == NULL)
		return -ENOTTY;
	fake_phc->sysoff_calls++;
	if (fake_phc->precise_err != 0)
		return fake_phc->precise_err;
	*p = fake_phc->precise;
	return 0;
}

static int
fake_sysoff_extended(int fd, struct ptp_sys_offset_extended *p)
{
	unsigned n = p->n_samples;

	(void)fd;
	if (fake_phc == NULL)
		return -ENOTTY;
	fake_phc->sysoff_calls++;
	if (fake_phc->extended_err != 0)
		return fake_phc->extended_err;
	if (n == 0 || n > PTP_MAX_SAMPLES)
		return -EINVAL;		/* as the kernel */
	*p = fake_phc->extended;
	p->n_samples = n;
	return 0;
}

static int
fake_sysoff_basic(int fd, struct ptp_sys_offset *p)
{
	unsigned n = p->n_samples;

	(void)fd;
	if (fake_phc == NULL)
		return -ENOTTY;
	fake_phc->sysoff_calls++;
	if (fake_phc->basic_err != 0)
		return fake_phc->basic_err;
	if (n == 0 || n > PTP_MAX_SAMPLES)
		return -EINVAL;
	*p = fake_phc->basic;
	p->n_samples = n;
	return 0;
}

static int
fake_adjtime(clockid_t id, struct timex *tx)
{
	(void)id;
	if (fake_phc == NULL)
		return -EINVAL;
	fake_phc->adj_calls++;
	if (tx->modes == 0)
		tx->status = fake_phc->adj_status;
	fake_phc->last = *tx;
	return fake_phc->adj_err;
}

static int
fake_getres(clockid_t id, struct timespec *res)
{
	(void)id;
	if (fake_phc == NULL)
		return -EINVAL;
	res->tv_sec = 0;
	res->tv_nsec = 1;
	return 0;
}

static const struct drv_ops fake_ops = {
	.ts_info = fake_ts_info,
	.drv_name = fake_drv_name,
	.hwts_get = fake_hwts_get,
	.hwts_set = fake_hwts_set,
	.phc_caps = fake_phc_caps,
	.sysoff_precise = fake_sysoff_precise,
	.sysoff_extended = fake_sysoff_extended,
	.sysoff_basic = fake_sysoff_basic,
	.adjtime = fake_adjtime,
	.getres = fake_getres,
};

void
drv_fake_install(const struct drv_fake_if *ifs, size_t n,
    struct drv_fake_phc *phc)
{
	fake_ifs = ifs;
	fake_nifs = n;
	fake_phc = phc;
	drv_set(&fake_ops);
}

void
drv_fake_remove(void)
{
	fake_ifs = NULL;
	fake_nifs = 0;
	fake_phc = NULL;
	drv_set(NULL);
}
