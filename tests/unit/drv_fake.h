/*
 * drv_fake.h - a driver seam (netd/drv.h) answering as recorded drivers
 * do, for unit tests: interfaces with their ETHTOOL_GET_TS_INFO answer
 * and SIOCSHWTSTAMP behaviour, one PHC with its PTP_CLOCK_GETCAPS answer,
 * and a record of every clock_adjtime() asked.
 */
#ifndef PTPSEP_TESTS_DRV_FAKE_H
#define PTPSEP_TESTS_DRV_FAKE_H

#include <stddef.h>
#include <stdint.h>

#include "netd/drv.h"

/* One interface as its driver answers. */
struct drv_fake_if {
	const char		*ifname;
	const char		*driver;	/* ETHTOOL_GDRVINFO */
	int			 ts_err;	/* GET_TS_INFO: 0 or -errno */
	struct ethtool_ts_info	 ts;
	int			 hwts_err;	/* SIOCSHWTSTAMP: 0 or -errno */
	/* The filter SIOCSHWTSTAMP answers with: -1 keeps the request's. */
	int			 hwts_rx;
	/*
	 * A tx_type not in ts.tx_types is answered -ERANGE (the drivers'
	 * hwtstamp_set default case); hwts_tx_on answers TX_ON whatever
	 * was asked (a driver that stays two-step).
	 */
	int			 hwts_tx_on;
};

struct drv_fake_phc {
	int			 caps_err;	/* PTP_CLOCK_GETCAPS */
	struct ptp_clock_caps	 caps;
	int			 adj_err;	/* clock_adjtime() */
	/* timex.status a read (modes 0) answers, as the kernel's */
	int			 adj_status;
	/* what netd asked */
	unsigned		 adj_calls;
	struct timex		 last;
	unsigned		 hwts_calls;
	struct hwtstamp_config	 hwts_asked;
	/* PTP_SYS_OFFSET_*: the error, else the answer (copied whole;
	 * n_samples is checked against what was asked) */
	int			 precise_err, extended_err, basic_err;
	struct ptp_sys_offset_precise precise;
	struct ptp_sys_offset_extended extended;
	struct ptp_sys_offset	 basic;
	unsigned		 sysoff_calls;
};

/* Installs the fake over ifs[0..n-1] and phc (may be NULL). */
void	drv_fake_install(const struct drv_fake_if *ifs, size_t n,
	    struct drv_fake_phc *phc);
/* Back to the kernel's table. */
void	drv_fake_remove(void);

#endif /* PTPSEP_TESTS_DRV_FAKE_H */
