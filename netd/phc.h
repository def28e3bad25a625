/*
 * phc.h - PTP hardware clock discovery: what a port's driver answers to
 * ETHTOOL_GET_TS_INFO, whether that is enough for hardware time stamps,
 * and which PHC the clock of all ports is (clock_device auto).
 *
 * phc_probe() asks the driver through the seam (drv.h); the rest is pure
 * over the recorded answer, so tests/unit/test_netd_phc.c runs it on the
 * answers of real drivers (tests/unit/drv_answers.h).
 */
#ifndef PTPSEP_NETD_PHC_H
#define PTPSEP_NETD_PHC_H

#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#include "transport.h"

/* One port's driver answer. */
struct phc_caps {
	char		ifname[IF_NAMESIZE];
	char		driver[32];	/* ETHTOOL_GDRVINFO, "?" if none */
	int		err;		/* ETHTOOL_GET_TS_INFO: 0 or -errno */
	uint32_t	so_timestamping; /* SOF_TIMESTAMPING_* */
	int		phc_index;	/* -1: no PHC */
	uint32_t	tx_types;	/* 1 << HWTSTAMP_TX_* */
	uint32_t	rx_filters;	/* 1 << HWTSTAMP_FILTER_* */
};

/* Asks ifname's driver; always fills caps (err says how it went). */
void	phc_probe(const char *ifname, struct phc_caps *caps);
/*
 * Whether the port can time-stamp PTP event messages of transport kind in
 * hardware: a PHC, SOF_TIMESTAMPING_TX_HARDWARE, RX_HARDWARE and
 * RAW_HARDWARE, HWTSTAMP_TX_ON, and an RX filter that tstamp_hw_reply_ok()
 * would accept.  0, or -1 with every missing capability named in why.
 * One-step (step not TSTEP_TWO) needs HWTSTAMP_TX_ONESTEP_SYNC, or
 * _ONESTEP_P2P, beside them.
 */
int	phc_port_check(const struct phc_caps *caps, enum transport_kind kind,
	    enum transport_step step, char *why, size_t len);
/*
 * The PHC of one clock over its ports' answers (each passed
 * phc_port_check()): all must name the same PHC, and it must be
 * configured when that is >= 0 (clock_device /dev/ptpN).  Ports whose
 * err is not 0 (absent) are skipped.  0 and *index, or -1 with why
 * naming each port and its /dev/ptpN; -1 also when no port answered.
 */
int	phc_choose(const struct phc_caps *caps, size_t n, int configured,
	    int *index, char *why, size_t len);

/*
 * The PHC of a clock with hardware time stamps over its n ports' answers
 * (kinds[i]: port i's transport), configured the named /dev/ptpN or -1
 * for clock_device auto: every port present must pass phc_port_check(),
 * then phc_choose().  A missing port (-ENODEV) is waited for when the PHC
 * is named and refused with auto (its PHC cannot be known); with every
 * port missing the named PHC is taken.  0 and *index, or -1 and why.
 */
int	phc_resolve(const struct phc_caps *caps,
	    const enum transport_kind *kinds, size_t n, enum transport_step,
	    int configured, int *index, char *why, size_t len);

/*
 * A port (re)opened while netd runs, e.g. an interface re-created under
 * its name on another NIC: phc_port_check(), and its PHC must be the
 * clock's (clock_index; -1: none known yet, any).  0, or -1 and why.
 */
int	phc_port_reopen_check(const struct phc_caps *caps,
	    enum transport_kind kind, enum transport_step step,
	    int clock_index, char *why, size_t len);

#endif /* PTPSEP_NETD_PHC_H */
