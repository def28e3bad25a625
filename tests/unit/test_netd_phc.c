/*
 * test_netd_phc.c - PHC discovery and the hardware time stamping checks
 * over the answers of real drivers (drv_answers.h) through the fake
 * driver seam: every answer, every refusal, the SIOCSHWTSTAMP dialogue
 * and the PHC's PTP_CLOCK_GETCAPS and clock_adjtime().
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "netd/clock.h"
#include "netd/phc.h"
#include "netd/tstamp.h"
#include "drv_answers.h"

static int
teardown(void **state)
{
	(void)state;
	drv_fake_remove();
	return 0;
}

/* Probes one recorded answer as netd would. */
static void
probe(const struct drv_fake_if *f, struct phc_caps *c)
{
	drv_fake_install(f, 1, NULL);
	phc_probe(f->ifname, c);
}

static void
assert_has(const char *s, const char *part)
{
	if (strstr(s, part) == NULL)
		fail_msg("'%s' not in '%s'", part, s);
}

static void
test_hardware_drivers_pass(void **state)
{
	const struct drv_fake_if a[] = { DA_IGC, DA_E1000E, DA_MLX5, DA_ICE };
	const int idx[] = { 0, 1, 2, 3 };
	const enum transport_kind k[] = { TR_L2, TR_UDP4, TR_UDP6 };
	struct phc_caps c;
	char why[512];
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		probe(&a[i], &c);
		assert_int_equal(c.err, 0);
		assert_int_equal(c.phc_index, idx[i]);
		assert_string_equal(c.driver, a[i].driver);
		assert_string_equal(c.ifname, a[i].ifname);
		for (j = 0; j < 3; j++) {
			assert_int_equal(phc_port_check(&c, k[j], TSTEP_TWO,
			    why, sizeof(why)), 0);
			assert_string_equal(why, "");
		}
	}
}

static void
test_veth_and_lo_refused(void **state)
{
	const struct drv_fake_if a[] = { DA_VETH, DA_LO };
	struct phc_caps c;
	char why[512];
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		probe(&a[i], &c);
		assert_int_equal(c.err, 0);
		assert_int_equal(phc_port_check(&c, TR_UDP4, TSTEP_TWO, why, sizeof(why)),
		    -1);
		assert_has(why, i == 0 ? "veth0 (veth): time_stamping "
		    "hardware: " : "lo (?): time_stamping hardware: ");
		assert_has(why, "no PTP hardware clock (phc_index -1), no "
		    "SOF_TIMESTAMPING_TX_HARDWARE/RX_HARDWARE/RAW_HARDWARE "
		    "(so_timestamping 0x1a), tx_types 0x0 (no HWTSTAMP_TX_ON), "
		    "rx_filters 0x0 (no HWTSTAMP_FILTER_PTP_V2_L4_EVENT, "
		    "PTP_V2_EVENT or ALL");
		assert_has(why, ": use time_stamping software");
	}
	/* e1000e without FLAG_HAS_HW_TIMESTAMP answers like veth. */
	{
		const struct drv_fake_if e = DA_E1000E_NO_HW;

		probe(&e, &c);
		assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)),
		    -1);
		assert_has(why, "eno1 (e1000e): time_stamping hardware: no "
		    "PTP hardware clock (phc_index -1)");
		assert_has(why, "(no HWTSTAMP_FILTER_PTP_V2_L2_EVENT,");
	}
}

static void
test_each_missing_need(void **state)
{
	struct drv_fake_if f = DA_IGC;
	struct phc_caps c;
	char why[512];

	(void)state;
	/* No PHC, all else there: only that is named. */
	f.ts.phc_index = -1;
	probe(&f, &c);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), -1);
	assert_string_equal(why, "enp1s0 (igc): time_stamping hardware: no "
	    "PTP hardware clock (phc_index -1): use time_stamping software");

	/* No RAW_HARDWARE: the raw PHC time stamps netd reads. */
	f = (struct drv_fake_if)DA_IGC;
	f.ts.so_timestamping &= ~SOF_TIMESTAMPING_RAW_HARDWARE;
	probe(&f, &c);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), -1);
	assert_string_equal(why, "enp1s0 (igc): time_stamping hardware: no "
	    "SOF_TIMESTAMPING_RAW_HARDWARE (so_timestamping 0x1f): use "
	    "time_stamping software");

	/* TX stamps but no RX: both named. */
	f = (struct drv_fake_if)DA_IGC;
	f.ts.so_timestamping &= ~(SOF_TIMESTAMPING_RX_HARDWARE |
	    SOF_TIMESTAMPING_TX_HARDWARE);
	probe(&f, &c);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), -1);
	assert_has(why, "no SOF_TIMESTAMPING_TX_HARDWARE/RX_HARDWARE "
	    "(so_timestamping 0x5a)");

	/* TX only OFF (a receive-only stamper). */
	f = (struct drv_fake_if)DA_IGC;
	f.ts.tx_types = 1u << HWTSTAMP_TX_OFF;
	probe(&f, &c);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), -1);
	assert_string_equal(why, "enp1s0 (igc): time_stamping hardware: "
	    "tx_types 0x1 (no HWTSTAMP_TX_ON): use time_stamping software");
}

static void
test_rx_filters(void **state)
{
	struct drv_fake_if f = DA_E1000E;
	struct phc_caps c;
	char why[512];

	(void)state;
	/* Sync and Delay_Req filters apart only: one filter is programmed. */
	f.ts.rx_filters &= ~(DA_RX(PTP_V2_EVENT) | DA_RX(ALL));
	probe(&f, &c);
	assert_int_equal(phc_port_check(&c, TR_UDP4, TSTEP_TWO, why, sizeof(why)), -1);
	assert_has(why, "eno1 (e1000e): time_stamping hardware: rx_filters "
	    "0x6db1 (no HWTSTAMP_FILTER_PTP_V2_L4_EVENT, PTP_V2_EVENT or "
	    "ALL: one filter must stamp every PTP event message)");
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), -1);
	assert_has(why, "(no HWTSTAMP_FILTER_PTP_V2_L2_EVENT,");

	/* An L2-only event filter: for L2, not for UDP. */
	f = (struct drv_fake_if)DA_IGC;
	f.ts.rx_filters = DA_RX(NONE) | DA_RX(PTP_V2_L2_EVENT);
	probe(&f, &c);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), 0);
	assert_int_equal(phc_port_check(&c, TR_UDP6, TSTEP_TWO, why, sizeof(why)), -1);
	f.ts.rx_filters = DA_RX(PTP_V2_L4_EVENT);
	probe(&f, &c);
	assert_int_equal(phc_port_check(&c, TR_UDP4, TSTEP_TWO, why, sizeof(why)), 0);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), -1);
	/* PTPv1 event filters do not stamp v2. */
	f.ts.rx_filters = DA_RX(PTP_V1_L4_EVENT);
	probe(&f, &c);
	assert_int_equal(phc_port_check(&c, TR_UDP4, TSTEP_TWO, why, sizeof(why)), -1);
}

static void
test_ts_info_errors(void **state)
{
	const struct drv_fake_if other = DA_IGC_OTHER_MAC;
	struct phc_caps c;
	char why[512];

	(void)state;
	probe(&other, &c);
	assert_int_equal(c.err, -EOPNOTSUPP);
	assert_int_equal(c.phc_index, -1);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), -1);
	assert_string_equal(why, "enp1s0 (igc): time_stamping hardware: "
	    "ETHTOOL_GET_TS_INFO: Operation not supported");
	/* An interface that is not there. */
	phc_probe("eth9", &c);
	assert_int_equal(c.err, -ENODEV);
	assert_string_equal(c.driver, "?");
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, sizeof(why)), -1);
	assert_string_equal(why, "eth9 (?): time_stamping hardware: "
	    "ETHTOOL_GET_TS_INFO: No such device (no such interface)");
	/* A short buffer is cut, never overrun. */
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_TWO, why, 8), -1);
	assert_string_equal(why, "eth9 (?");
}

static void
test_choose(void **state)
{
	const struct drv_fake_if two[] = { DA_MLX5, DA_MLX5_P1 };
	const struct drv_fake_if split[] = { DA_IGC, DA_E1000E, DA_ICE };
	struct phc_caps c[3];
	char why[512];
	int index = -7;

	(void)state;
	drv_fake_install(two, 2, NULL);
	phc_probe(two[0].ifname, &c[0]);
	phc_probe(two[1].ifname, &c[1]);
	assert_int_equal(phc_choose(c, 2, -1, &index, why, sizeof(why)), 0);
	assert_int_equal(index, 2);
	/* Named, and right. */
	index = -7;
	assert_int_equal(phc_choose(c, 2, 2, &index, why, sizeof(why)), 0);
	assert_int_equal(index, 2);
	/* Named, and wrong. */
	assert_int_equal(phc_choose(c, 2, 5, &index, why, sizeof(why)), -1);
	assert_string_equal(why, "clock_device /dev/ptp5 is not the PHC of "
	    "enp65s0f0np0 (/dev/ptp2, driver mlx5_core): its time stamps "
	    "would be in another clock's timescale; set clock_device auto "
	    "or /dev/ptp2");
	/* A missing port is skipped; none at all cannot be chosen from. */
	c[0].err = -ENODEV;
	assert_int_equal(phc_choose(c, 2, -1, &index, why, sizeof(why)), 0);
	c[1].err = -ENODEV;
	assert_int_equal(phc_choose(c, 2, -1, &index, why, sizeof(why)), -1);
	assert_has(why, "no port answered");

	/* Three NICs, three PHCs: every port and its PHC named. */
	drv_fake_install(split, 3, NULL);
	phc_probe(split[0].ifname, &c[0]);
	phc_probe(split[1].ifname, &c[1]);
	phc_probe(split[2].ifname, &c[2]);
	assert_int_equal(phc_choose(c, 3, -1, &index, why, sizeof(why)), -1);
	assert_string_equal(why, "one clock needs one PHC, but the ports are "
	    "on enp1s0 (/dev/ptp0), eno1 (/dev/ptp1), ens785f0 (/dev/ptp3): "
	    "run one ptpsep per PHC");
}

/* What main.c does at start: probe every port, then phc_resolve(). */
static int
resolve(const struct drv_fake_if *ifs, size_t nifs, const char **names,
    size_t n, int configured, int *index, char *why, size_t len)
{
	struct phc_caps c[4];
	enum transport_kind k[4];
	size_t i;

	drv_fake_install(ifs, nifs, NULL);
	for (i = 0; i < n; i++) {
		phc_probe(names[i], &c[i]);
		k[i] = i % 2 ? TR_UDP6 : TR_L2;
	}
	return phc_resolve(c, k, n, TSTEP_TWO, configured, index, why, len);
}

static void
test_resolve(void **state)
{
	const struct drv_fake_if mlx[] = { DA_MLX5, DA_MLX5_P1 };
	const struct drv_fake_if mixed[] = { DA_ICE, DA_VETH };
	const char *two[] = { "enp65s0f0np0", "enp65s0f1np1" };
	const char *gone[] = { "enp65s0f0np0", "eth5" };
	const char *nic_veth[] = { "ens785f0", "veth0" };
	char why[512];
	int index;

	(void)state;
	/* auto: both ports of one NIC, its PHC. */
	index = -7;
	assert_int_equal(resolve(mlx, 2, two, 2, -1, &index, why,
	    sizeof(why)), 0);
	assert_int_equal(index, 2);
	/* auto with a port missing: its PHC cannot be known. */
	assert_int_equal(resolve(mlx, 2, gone, 2, -1, &index, why,
	    sizeof(why)), -1);
	assert_string_equal(why, "eth5: no such interface: with clock_device "
	    "auto its PHC cannot be known; name it (clock_device /dev/ptpN) "
	    "to wait for the port");
	/* Named: the missing port is waited for. */
	index = -7;
	assert_int_equal(resolve(mlx, 2, gone, 2, 2, &index, why,
	    sizeof(why)), 0);
	assert_int_equal(index, 2);
	/* Named, every port missing: the named PHC. */
	index = -7;
	assert_int_equal(resolve(mlx, 0, gone, 2, 4, &index, why,
	    sizeof(why)), 0);
	assert_int_equal(index, 4);
	/* A NIC and a veth: the veth refused, by name. */
	assert_int_equal(resolve(mixed, 2, nic_veth, 2, -1, &index, why,
	    sizeof(why)), -1);
	assert_has(why, "veth0 (veth): time_stamping hardware: no PTP "
	    "hardware clock (phc_index -1)");
	/* Named, and another NIC's. */
	assert_int_equal(resolve(mlx, 2, two, 2, 3, &index, why,
	    sizeof(why)), -1);
	assert_has(why, "clock_device /dev/ptp3 is not the PHC of "
	    "enp65s0f0np0 (/dev/ptp2, driver mlx5_core)");
}

static void
test_reopen(void **state)
{
	const struct drv_fake_if a[] = { DA_IGC, DA_E1000E, DA_VETH };
	struct phc_caps c;
	char why[512];

	(void)state;
	drv_fake_install(a, 3, NULL);
	/* Back on the same NIC (PHC 0), or any PHC before one is known. */
	phc_probe("enp1s0", &c);
	assert_int_equal(phc_port_reopen_check(&c, TR_L2, TSTEP_TWO, 0, why,
	    sizeof(why)), 0);
	assert_int_equal(phc_port_reopen_check(&c, TR_L2, TSTEP_TWO, -1, why,
	    sizeof(why)), 0);
	/* Re-created on another NIC: refused, both PHCs named. */
	phc_probe("eno1", &c);
	assert_int_equal(phc_port_reopen_check(&c, TR_UDP4, TSTEP_TWO, 0, why,
	    sizeof(why)), -1);
	assert_string_equal(why, "eno1 (driver e1000e) is on /dev/ptp1, not "
	    "on the clock's /dev/ptp0: its time stamps would be in another "
	    "clock's timescale");
	/* Re-created as a veth: the capability check speaks. */
	phc_probe("veth0", &c);
	assert_int_equal(phc_port_reopen_check(&c, TR_UDP4, TSTEP_TWO, 0, why,
	    sizeof(why)), -1);
	assert_has(why, "phc_index -1");
}

static void
test_hwtstamp_dialogue(void **state)
{
	struct drv_fake_if f[] = { DA_IGC, DA_E1000E, DA_VETH };
	struct drv_fake_phc phc;

	(void)state;
	memset(&phc, 0, sizeof(phc));
	drv_fake_install(f, 3, &phc);
	/* igc widens our L4 event filter to ALL: accepted. */
	assert_int_equal(tstamp_hw_enable(-1, "enp1s0", TR_UDP4, TSTEP_TWO),
	    0);
	assert_int_equal(phc.hwts_calls, 1);
	assert_int_equal(phc.hwts_asked.tx_type, HWTSTAMP_TX_ON);
	assert_int_equal(phc.hwts_asked.rx_filter,
	    HWTSTAMP_FILTER_PTP_V2_L4_EVENT);
	/* e1000e answers PTP_V2_EVENT to an L2 request: accepted. */
	assert_int_equal(tstamp_hw_enable(-1, "eno1", TR_L2, TSTEP_TWO), 0);
	assert_int_equal(phc.hwts_asked.rx_filter,
	    HWTSTAMP_FILTER_PTP_V2_L2_EVENT);
	/* veth: EOPNOTSUPP, passed on. */
	assert_int_equal(tstamp_hw_enable(-1, "veth0", TR_L2, TSTEP_TWO),
	    -EOPNOTSUPP);
	/* A driver answering with a narrower filter (Sync only): refused. */
	f[0].hwts_rx = HWTSTAMP_FILTER_PTP_V2_L4_SYNC;
	assert_int_equal(tstamp_hw_enable(-1, "enp1s0", TR_UDP4, TSTEP_TWO),
	    -EOPNOTSUPP);
	/* ... or with L2 events for a UDP port. */
	f[0].hwts_rx = HWTSTAMP_FILTER_PTP_V2_L2_EVENT;
	assert_int_equal(tstamp_hw_enable(-1, "enp1s0", TR_UDP6, TSTEP_TWO),
	    -EOPNOTSUPP);
	/* A filter the driver cannot set at all. */
	f[0].hwts_err = -ERANGE;
	assert_int_equal(tstamp_hw_enable(-1, "enp1s0", TR_UDP4, TSTEP_TWO),
	    -ERANGE);
}

/*
 * PTP_CLOCK_GETCAPS and clock_adjtime() on a PHC.  clock_phc_open() needs
 * a character device to open: /dev/null stands in, every call after the
 * open goes to the fake.
 */
static void
test_phc_caps_and_adjtime(void **state)
{
	struct drv_fake_phc phc;
	struct clock *c;
	double ppb;

	(void)state;
	memset(&phc, 0, sizeof(phc));
	phc.caps.max_adj = DA_IGC_MAX_ADJ;
	drv_fake_install(NULL, 0, &phc);
	c = clock_phc_open("/dev/null");
	assert_non_null(c);
	assert_true(c->max_adj_ppb == DA_IGC_MAX_ADJ);
	assert_int_equal(c->kind, CLOCK_KIND_PHC);
	assert_int_equal(clock_adjfreq(c, 1000.0), 0);
	assert_int_equal(phc.adj_calls, 1);
	assert_int_equal(phc.last.modes, ADJ_FREQUENCY);
	assert_int_equal(phc.last.freq, 65536);	/* 1 ppm, scaled */
	/* Beyond the driver's max_adj: refused before the driver. */
	assert_int_equal(clock_adjfreq(c, 62500000.0), -ERANGE);
	assert_int_equal(phc.adj_calls, 1);
	/* A step: ADJ_SETOFFSET | ADJ_NANO, -1.5 s as -2 s + 0.5e9 ns. */
	assert_int_equal(clock_step(c, -1500000000LL), 0);
	assert_int_equal(phc.last.modes, ADJ_SETOFFSET | ADJ_NANO);
	assert_int_equal(phc.last.time.tv_sec, -2);
	assert_int_equal(phc.last.time.tv_usec, 500000000);
	/* The driver's error is passed on. */
	phc.adj_err = -EOPNOTSUPP;
	assert_int_equal(clock_getfreq(c, &ppb), -EOPNOTSUPP);
	clock_close(c);

	/* max_adj 0: the PHC cannot be steered, refused. */
	phc.caps.max_adj = 0;
	errno = 0;
	assert_null(clock_phc_open("/dev/null"));
	assert_int_equal(errno, ENOTSUP);
	/* GETCAPS refused: not a PHC. */
	phc.caps_err = -ENOTTY;
	errno = 0;
	assert_null(clock_phc_open("/dev/null"));
	assert_int_equal(errno, ENOTTY);
}

/*
 * One-step (twoStepFlag 0, time_stamping onestep/p2p1step): the drivers
 * that offer only TX OFF|ON are refused naming the tx type they lack;
 * those that insert the time are accepted, P2P only where offered.
 */
static void
test_one_step_check(void **state)
{
	const struct drv_fake_if two[] = { DA_IGC, DA_E1000E, DA_MLX5,
	    DA_ICE };
	const struct drv_fake_if oc = DA_OCELOT, bcm = DA_BCM_PHY;
	struct phc_caps c;
	char why[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(two) / sizeof(two[0]); i++) {
		probe(&two[i], &c);
		assert_int_equal(phc_port_check(&c, TR_UDP4, TSTEP_ONE_SYNC,
		    why, sizeof(why)), -1);
		assert_has(why, "twoStepFlag 0 needs HWTSTAMP_TX_ONESTEP_SYNC");
		assert_int_equal(phc_port_check(&c, TR_UDP4, TSTEP_ONE_P2P,
		    why, sizeof(why)), -1);
		assert_has(why, "p2p1step needs HWTSTAMP_TX_ONESTEP_P2P");
	}
	probe(&two[1], &c);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_ONE_SYNC, why,
	    sizeof(why)), -1);
	assert_string_equal(why, "eno1 (e1000e): twoStepFlag 0 needs "
	    "HWTSTAMP_TX_ONESTEP_SYNC; tx_types 0x3: set time_stamping "
	    "hardware and twoStepFlag 1 (two-step)");
	/* The same at start and when a port is re-opened. */
	assert_int_equal(phc_port_reopen_check(&c, TR_L2, TSTEP_ONE_SYNC, 1,
	    why, sizeof(why)), -1);
	assert_has(why, "eno1 (e1000e): twoStepFlag 0 needs ");
	assert_int_equal(phc_port_reopen_check(&c, TR_L2, TSTEP_TWO, 1,
	    why, sizeof(why)), 0);

	probe(&oc, &c);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_ONE_SYNC, why,
	    sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(phc_port_check(&c, TR_UDP4, TSTEP_TWO, why,
	    sizeof(why)), 0);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_ONE_P2P, why,
	    sizeof(why)), -1);
	assert_string_equal(why, "swp0 (felix): time_stamping p2p1step needs "
	    "HWTSTAMP_TX_ONESTEP_P2P; tx_types 0x7: set time_stamping "
	    "onestep (one-step Sync only)");

	probe(&bcm, &c);
	assert_int_equal(phc_port_check(&c, TR_UDP6, TSTEP_ONE_SYNC, why,
	    sizeof(why)), 0);
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_ONE_P2P, why,
	    sizeof(why)), 0);

	/* A two-step shortcoming is named first, as without one-step. */
	probe(&two[0], &c);
	c.tx_types = 1u << HWTSTAMP_TX_OFF;
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_ONE_SYNC, why,
	    sizeof(why)), -1);
	assert_string_equal(why, "enp1s0 (igc): time_stamping hardware, "
	    "twoStepFlag 0 (one-step): tx_types 0x1 (no HWTSTAMP_TX_ON): use "
	    "time_stamping software (two-step: twoStepFlag 1)");
	assert_int_equal(phc_port_check(&c, TR_L2, TSTEP_ONE_P2P, why,
	    sizeof(why)), -1);
	assert_has(why, "enp1s0 (igc): time_stamping p2p1step: tx_types 0x1");
}

/* phc_resolve() at start applies the clock's step to every port. */
static void
test_one_step_resolve(void **state)
{
	const struct drv_fake_if f[] = { DA_OCELOT, DA_E1000E };
	struct phc_caps c[2];
	enum transport_kind k[2] = { TR_L2, TR_L2 };
	char why[512];
	int index = -1;

	(void)state;
	drv_fake_install(f, 2, NULL);
	phc_probe("swp0", &c[0]);
	phc_probe("eno1", &c[1]);
	assert_int_equal(phc_resolve(c, k, 1, TSTEP_ONE_SYNC, -1, &index,
	    why, sizeof(why)), 0);
	assert_int_equal(index, 4);
	assert_int_equal(phc_resolve(c + 1, k, 1, TSTEP_ONE_SYNC, -1, &index,
	    why, sizeof(why)), -1);
	assert_has(why, "eno1 (e1000e): twoStepFlag 0 needs "
	    "HWTSTAMP_TX_ONESTEP_SYNC");
	assert_int_equal(phc_resolve(c + 1, k, 1, TSTEP_TWO, -1, &index,
	    why, sizeof(why)), 0);
	assert_int_equal(index, 1);
}

/*
 * SIOCSHWTSTAMP asks the step's tx type; a driver that does not offer it
 * (-ERANGE) or answers another tx type is refused.
 */
static void
test_one_step_hwtstamp(void **state)
{
	struct drv_fake_if f[] = { DA_OCELOT, DA_BCM_PHY, DA_E1000E };
	struct drv_fake_phc phc;

	(void)state;
	memset(&phc, 0, sizeof(phc));
	drv_fake_install(f, 3, &phc);
	assert_int_equal(tstamp_hw_enable(-1, "swp0", TR_L2, TSTEP_ONE_SYNC),
	    0);
	assert_int_equal(phc.hwts_asked.tx_type, HWTSTAMP_TX_ONESTEP_SYNC);
	assert_int_equal(phc.hwts_asked.rx_filter,
	    HWTSTAMP_FILTER_PTP_V2_L2_EVENT);
	assert_int_equal(tstamp_hw_enable(-1, "eth0", TR_UDP4, TSTEP_ONE_P2P),
	    0);
	assert_int_equal(phc.hwts_asked.tx_type, HWTSTAMP_TX_ONESTEP_P2P);
	assert_int_equal(tstamp_hw_enable(-1, "eth0", TR_UDP4, TSTEP_TWO), 0);
	assert_int_equal(phc.hwts_asked.tx_type, HWTSTAMP_TX_ON);
	/* ocelot has no ONESTEP_P2P, e1000e no one-step at all. */
	assert_int_equal(tstamp_hw_enable(-1, "swp0", TR_L2, TSTEP_ONE_P2P),
	    -ERANGE);
	assert_int_equal(tstamp_hw_enable(-1, "eno1", TR_L2, TSTEP_ONE_SYNC),
	    -ERANGE);
	assert_int_equal(phc.hwts_asked.tx_type, HWTSTAMP_TX_ONESTEP_SYNC);
	/* A driver that answers TX_ON to a one-step request. */
	f[0].hwts_tx_on = 1;
	assert_int_equal(tstamp_hw_enable(-1, "swp0", TR_L2, TSTEP_ONE_SYNC),
	    -EOPNOTSUPP);
	assert_int_equal(tstamp_hw_enable(-1, "swp0", TR_L2, TSTEP_TWO), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_hardware_drivers_pass, teardown),
		cmocka_unit_test_teardown(test_veth_and_lo_refused, teardown),
		cmocka_unit_test_teardown(test_each_missing_need, teardown),
		cmocka_unit_test_teardown(test_rx_filters, teardown),
		cmocka_unit_test_teardown(test_ts_info_errors, teardown),
		cmocka_unit_test_teardown(test_choose, teardown),
		cmocka_unit_test_teardown(test_resolve, teardown),
		cmocka_unit_test_teardown(test_reopen, teardown),
		cmocka_unit_test_teardown(test_hwtstamp_dialogue, teardown),
		cmocka_unit_test_teardown(test_phc_caps_and_adjtime, teardown),
		cmocka_unit_test_teardown(test_one_step_check, teardown),
		cmocka_unit_test_teardown(test_one_step_resolve, teardown),
		cmocka_unit_test_teardown(test_one_step_hwtstamp, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
