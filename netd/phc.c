/*
 * phc.c - PTP hardware clock discovery and the checks of a port's
 * hardware time stamping capabilities (phc.h, doc/design.md).
 *
 * What ptpsep needs of a driver for two-step hardware time stamps
 * (IEEE 1588-2019 7.3.4: event messages stamped at the PHY/MAC):
 *  - a PHC (phc_index >= 0): the time stamps are in its timescale, and
 *    netd steers it;
 *  - SOF_TIMESTAMPING_TX_HARDWARE, RX_HARDWARE, RAW_HARDWARE (tstamp.c's
 *    socket flags).  Not RX_SOFTWARE: since Linux 6.x the core, not the
 *    driver, reports the software bits;
 *  - HWTSTAMP_TX_ON;
 *  - one RX filter that stamps every PTPv2 event message of the port's
 *    transport: ALL, PTP_V2_EVENT or the transport's V2_L2/L4_EVENT (what
 *    tstamp_hw_reply_ok() accepts).  SIOCSHWTSTAMP programs one filter,
 *    so a driver offering SYNC and DELAY_REQ filters separately does not
 *    do: a port stamps Sync and Delay_Req, and Pdelay_* with P2P.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/net_tstamp.h>

#include "drv.h"
#include "phc.h"

#define PHC_SOF_NEEDED	(SOF_TIMESTAMPING_TX_HARDWARE | \
			 SOF_TIMESTAMPING_RX_HARDWARE | \
			 SOF_TIMESTAMPING_RAW_HARDWARE)

void
phc_probe(const char *ifname, struct phc_caps *caps)
{
	struct ethtool_ts_info ti;

	memset(caps, 0, sizeof(*caps));
	snprintf(caps->ifname, sizeof(caps->ifname), "%s", ifname);
	caps->phc_index = -1;
	if (drv()->drv_name(ifname, caps->driver, sizeof(caps->driver)) != 0 ||
	    caps->driver[0] == '\0')
		snprintf(caps->driver, sizeof(caps->driver), "?");
	memset(&ti, 0, sizeof(ti));
	if ((caps->err = drv()->ts_info(ifname, &ti)) != 0)
		return;
	caps->so_timestamping = ti.so_timestamping;
	caps->phc_index = ti.phc_index;
	caps->tx_types = ti.tx_types;
	caps->rx_filters = ti.rx_filters;
}

/* The filters that stamp every PTPv2 event message of this transport. */
static uint32_t
phc_rx_ok_mask(enum transport_kind kind)
{
	uint32_t m = (1u << HWTSTAMP_FILTER_ALL) |
	    (1u << HWTSTAMP_FILTER_PTP_V2_EVENT);

	if (kind == TR_L2)
		m |= 1u << HWTSTAMP_FILTER_PTP_V2_L2_EVENT;
	else
		m |= 1u << HWTSTAMP_FILTER_PTP_V2_L4_EVENT;
	return m;
}

/* Appends to why at *off, never past len. */
static void __attribute__((format(printf, 4, 5)))
phc_add(char *why, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(why + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += (size_t)n;
}

/*
 * One-step (IEEE 1588-2019 11.3.2, 11.4.3): the driver must offer the tx
 * type that inserts the time (the kernel's timestamping.rst).  Checked
 * once the two-step capabilities are there, so that the message names
 * just what one-step adds.
 */
static int
phc_step_check(const struct phc_caps *c, enum transport_step step,
    char *why, size_t len)
{
	int tx = step == TSTEP_ONE_P2P ? HWTSTAMP_TX_ONESTEP_P2P :
	    HWTSTAMP_TX_ONESTEP_SYNC;

	if (step == TSTEP_TWO || (c->tx_types & (1u << tx)))
		return 0;
	snprintf(why, len, "%s (%s): %s needs %s; tx_types 0x%x: set %s",
	    c->ifname, c->driver, step == TSTEP_ONE_P2P ?
	    "time_stamping p2p1step" : "twoStepFlag 0",
	    tx == HWTSTAMP_TX_ONESTEP_P2P ? "HWTSTAMP_TX_ONESTEP_P2P" :
	    "HWTSTAMP_TX_ONESTEP_SYNC", (unsigned)c->tx_types,
	    step == TSTEP_ONE_P2P && (c->tx_types &
	    (1u << HWTSTAMP_TX_ONESTEP_SYNC)) ? "time_stamping onestep "
	    "(one-step Sync only)" : "time_stamping hardware and twoStepFlag "
	    "1 (two-step)");
	return -1;
}

int
phc_port_check(const struct phc_caps *c, enum transport_kind kind,
    enum transport_step step, char *why, size_t len)
{
	static const struct {
		uint32_t	 bit;
		const char	*name;
	} sof[] = {
		{ SOF_TIMESTAMPING_TX_HARDWARE, "TX_HARDWARE" },
		{ SOF_TIMESTAMPING_RX_HARDWARE, "RX_HARDWARE" },
		{ SOF_TIMESTAMPING_RAW_HARDWARE, "RAW_HARDWARE" },
	};
	uint32_t miss = PHC_SOF_NEEDED & ~c->so_timestamping;
	const char *sep = "";
	size_t off = 0, i;
	int bad = 0;

	if (len > 0)
		why[0] = '\0';
	phc_add(why, len, &off, "%s (%s): time_stamping %s: ", c->ifname,
	    c->driver, step == TSTEP_ONE_P2P ? "p2p1step" :
	    step == TSTEP_ONE_SYNC ? "hardware, twoStepFlag 0 (one-step)" :
	    "hardware");
	if (c->err != 0) {
		phc_add(why, len, &off, "ETHTOOL_GET_TS_INFO: %s%s",
		    strerror(-c->err), c->err == -ENODEV ?
		    " (no such interface)" : "");
		return -1;
	}
	if (c->phc_index < 0) {
		phc_add(why, len, &off, "no PTP hardware clock (phc_index %d)",
		    c->phc_index);
		sep = ", ";
		bad = 1;
	}
	if (miss != 0) {
		phc_add(why, len, &off, "%sno SOF_TIMESTAMPING_", sep);
		sep = "";
		for (i = 0; i < sizeof(sof) / sizeof(sof[0]); i++)
			if (miss & sof[i].bit) {
				phc_add(why, len, &off, "%s%s", sep,
				    sof[i].name);
				sep = "/";
			}
		phc_add(why, len, &off, " (so_timestamping 0x%x)",
		    (unsigned)c->so_timestamping);
		sep = ", ";
		bad = 1;
	}
	if (!(c->tx_types & (1u << HWTSTAMP_TX_ON))) {
		phc_add(why, len, &off, "%stx_types 0x%x (no HWTSTAMP_TX_ON)",
		    sep, (unsigned)c->tx_types);
		sep = ", ";
		bad = 1;
	}
	if (!(c->rx_filters & phc_rx_ok_mask(kind))) {
		phc_add(why, len, &off, "%srx_filters 0x%x (no "
		    "HWTSTAMP_FILTER_%s, PTP_V2_EVENT or ALL: one filter must "
		    "stamp every PTP event message)", sep,
		    (unsigned)c->rx_filters, kind == TR_L2 ?
		    "PTP_V2_L2_EVENT" : "PTP_V2_L4_EVENT");
		bad = 1;
	}
	if (!bad) {
		if (len > 0)
			why[0] = '\0';
		return phc_step_check(c, step, why, len);
	}
	phc_add(why, len, &off, ": use time_stamping software%s",
	    step == TSTEP_TWO ? "" : " (two-step: twoStepFlag 1)");
	return -1;
}

int
phc_choose(const struct phc_caps *caps, size_t n, int configured,
    int *index, char *why, size_t len)
{
	size_t i, first = n, off = 0;
	int split = 0;

	for (i = 0; i < n; i++) {
		if (caps[i].err != 0)
			continue;
		if (first == n)
			first = i;
		else if (caps[i].phc_index != caps[first].phc_index)
			split = 1;
	}
	if (len > 0)
		why[0] = '\0';
	if (first == n) {
		snprintf(why, len, "no port answered ETHTOOL_GET_TS_INFO: the "
		    "PHC cannot be known");
		return -1;
	}
	if (split) {
		/* One PTP instance, one clock (IEEE 1588-2019 6.3.1). */
		phc_add(why, len, &off, "one clock needs one PHC, but the "
		    "ports are on ");
		for (i = first; i < n; i++) {
			if (caps[i].err != 0)
				continue;
			phc_add(why, len, &off, "%s%s (/dev/ptp%d)",
			    i == first ? "" : ", ", caps[i].ifname,
			    caps[i].phc_index);
		}
		phc_add(why, len, &off, ": run one ptpsep per PHC");
		return -1;
	}
	if (configured >= 0 && caps[first].phc_index != configured) {
		snprintf(why, len, "clock_device /dev/ptp%d is not the PHC of "
		    "%s (/dev/ptp%d, driver %s): its time stamps would be in "
		    "another clock's timescale; set clock_device auto or "
		    "/dev/ptp%d", configured, caps[first].ifname,
		    caps[first].phc_index, caps[first].driver,
		    caps[first].phc_index);
		return -1;
	}
	*index = caps[first].phc_index;
	return 0;
}

int
phc_resolve(const struct phc_caps *caps, const enum transport_kind *kinds,
    size_t n, enum transport_step step, int configured, int *index,
    char *why, size_t len)
{
	size_t i, present = 0;

	for (i = 0; i < n; i++) {
		if (caps[i].err == -ENODEV) {
			if (configured >= 0)
				continue;	/* waited for */
			snprintf(why, len, "%s: no such interface: with "
			    "clock_device auto its PHC cannot be known; name "
			    "it (clock_device /dev/ptpN) to wait for the port",
			    caps[i].ifname);
			return -1;
		}
		if (phc_port_check(&caps[i], kinds[i], step, why, len) != 0)
			return -1;
		present++;
	}
	if (present == 0 && configured >= 0) {
		*index = configured;
		return 0;
	}
	return phc_choose(caps, n, configured, index, why, len);
}

int
phc_port_reopen_check(const struct phc_caps *caps, enum transport_kind kind,
    enum transport_step step, int clock_index, char *why, size_t len)
{
	if (phc_port_check(caps, kind, step, why, len) != 0)
		return -1;
	if (clock_index >= 0 && caps->phc_index != clock_index) {
		snprintf(why, len, "%s (driver %s) is on /dev/ptp%d, not on "
		    "the clock's /dev/ptp%d: its time stamps would be in "
		    "another clock's timescale", caps->ifname, caps->driver,
		    caps->phc_index, clock_index);
		return -1;
	}
	return 0;
}
