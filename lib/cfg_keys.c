/*
 * cfg_keys.c - every configuration key: type, range, default, scope, status.
 *
 * One table gives the parser, the range checks, the defaults and the
 * documentation (etc/README.md) their facts, like linuxptp's config_tab.
 * Names, ranges and defaults of ptp4l's keys are those of linuxptp 3.1.1
 * (Debian 12), checked against the installed ptp4l; the keys linuxptp 4.x
 * added are known too (CFG_KF_PTP4L_4X) so that newer ptp4l.conf files load
 * with warnings.  The table is sorted by strcmp() of the name (bsearch);
 * cfg_keys_selftest() checks that and the defaults.
 */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "cfg_value.h"
#include "log.h"

/* Longer names are too far from every key to be suggested. */
#define KEY_NAME_MAX	CFG_SHOW_MAX
#define IMPL	CFG_ST_IMPLEMENTED
#define UNIMPL	CFG_ST_UNIMPLEMENTED

#define ITEM_INT(n, sc, st, fl, d, lo, hi, w) {				\
	.name = (n), .type = CFG_T_INT, .scope = (sc), .status = (st),	\
	.flags = (fl), .idef = (d), .imin = (lo), .imax = (hi), .vals = (w) }
#define ITEM_I64(n, sc, st, fl, d, lo, hi) {				\
	.name = (n), .type = CFG_T_INT64, .scope = (sc), .status = (st),\
	.flags = (fl), .idef = (d), .imin = (lo), .imax = (hi) }
#define ITEM_DBL(n, sc, st, fl, d, lo, hi) {				\
	.name = (n), .type = CFG_T_DOUBLE, .scope = (sc), .status = (st),\
	.flags = (fl), .ddef = (d), .dmin = (lo), .dmax = (hi) }
#define ITEM_STR(n, sc, st, fl, d, chk, nt) {				\
	.name = (n), .type = CFG_T_STRING, .scope = (sc), .status = (st),\
	.flags = (fl), .sdef = (d), .check = (chk), .note = (nt) }
#define ITEM_ENU(n, sc, st, fl, d, tab) {				\
	.name = (n), .type = CFG_T_ENUM, .scope = (sc), .status = (st),	\
	.flags = (fl), .idef = (d), .vals = (tab) }
#define ITEM_ALIAS(n, target, fl) {					\
	.name = (n), .alias_of = (target), .flags = (fl) }

/* ptp4l's global (GLOB_ITEM_*) and port (PORT_ITEM_*) items. */
#define G_INT(n, st, d, lo, hi) ITEM_INT(n, CFG_SC_GLOBAL, st, 0, d, lo, hi, NULL)
#define P_INT(n, st, d, lo, hi) ITEM_INT(n, CFG_SC_PORT, st, 0, d, lo, hi, NULL)
#define G_DBL(n, st, d, lo, hi) ITEM_DBL(n, CFG_SC_GLOBAL, st, 0, d, lo, hi)
#define G_STR(n, st, d) ITEM_STR(n, CFG_SC_GLOBAL, st, 0, d, NULL, NULL)
#define P_STR(n, st, d) ITEM_STR(n, CFG_SC_PORT, st, 0, d, NULL, NULL)
#define G_ENU(n, st, d, t) ITEM_ENU(n, CFG_SC_GLOBAL, st, 0, d, t)
#define P_ENU(n, st, d, t) ITEM_ENU(n, CFG_SC_PORT, st, 0, d, t)
/* The same, only in linuxptp 4.x. */
#define G_INT4(n, d, lo, hi) \
	ITEM_INT(n, CFG_SC_GLOBAL, UNIMPL, CFG_KF_PTP4L_4X, d, lo, hi, NULL)
#define P_INT4(n, d, lo, hi) \
	ITEM_INT(n, CFG_SC_PORT, UNIMPL, CFG_KF_PTP4L_4X, d, lo, hi, NULL)
#define G_STR4(n, d) \
	ITEM_STR(n, CFG_SC_GLOBAL, UNIMPL, CFG_KF_PTP4L_4X, d, NULL, NULL)
#define P_STR4(n, d) \
	ITEM_STR(n, CFG_SC_PORT, UNIMPL, CFG_KF_PTP4L_4X, d, NULL, NULL)
/* ptpsep's own keys: all global, all implemented. */
#define O_INT(n, d, lo, hi) \
	ITEM_INT(n, CFG_SC_GLOBAL, IMPL, CFG_KF_OWN, d, lo, hi, NULL)
#define O_I64(n, d, lo, hi) \
	ITEM_I64(n, CFG_SC_GLOBAL, IMPL, CFG_KF_OWN, d, lo, hi)
#define O_DBL(n, d, lo, hi) \
	ITEM_DBL(n, CFG_SC_GLOBAL, IMPL, CFG_KF_OWN, d, lo, hi)
#define O_STR(n, d, chk) \
	ITEM_STR(n, CFG_SC_GLOBAL, IMPL, CFG_KF_OWN, d, chk, NULL)
#define O_ENU(n, d, t) \
	ITEM_ENU(n, CFG_SC_GLOBAL, IMPL, CFG_KF_OWN, d, t)

/* ---- string validators ---- */

static const char *
check_mac(const char *v)
{
	uint8_t mac[6];

	if (cfg_parse_mac(v, mac) != 0)
		return "not a MAC address (xx:xx:xx:xx:xx:xx)";
	return NULL;
}

/* sizeof(((struct sockaddr_un *)0)->sun_path) on Linux. */
#define SUN_PATH_MAX	108

static const char *
check_socket_path(const char *v)
{
	/* Relative paths would depend on the daemon's working directory. */
	if (v[0] != '/')
		return "not an absolute path";
	if (strlen(v) >= SUN_PATH_MAX)
		return "too long for a Unix socket path (max 107 bytes)";
	return NULL;
}

static const char *
check_account(const char *v)
{
	size_t i, len = strlen(v);

	/* The portable user and group name set (POSIX, useradd's default). */
	if (len == 0 || len > 32)
		return "not a user or group name (1 to 32 characters)";
	if (v[0] == '-')
		return "a user or group name cannot start with '-'";
	for (i = 0; i < len; i++) {
		char c = v[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		    c == '.' || (c == '$' && i == len - 1)))
			return "not a user or group name ([A-Za-z0-9_.-])";
	}
	return NULL;
}

static const char *
check_clock_device(const char *v)
{
	enum cfg_clock_kind kind;
	int idx;

	if (cfg_clock_device_parse(v, &kind, &idx) != 0)
		return "expected auto, system, virtual or /dev/ptpN";
	return NULL;
}

int
cfg_clock_device_parse(const char *value, enum cfg_clock_kind *kind,
    int *phc_index)
{
	const char *p;
	long n = 0;

	*phc_index = -1;
	if (strcmp(value, "auto") == 0) {
		*kind = CFG_CLK_AUTO;
		return 0;
	}
	if (strcmp(value, "system") == 0) {
		*kind = CFG_CLK_SYSTEM;
		return 0;
	}
	if (strcmp(value, "virtual") == 0) {
		*kind = CFG_CLK_VIRTUAL;
		return 0;
	}
	if (strncmp(value, "/dev/ptp", 8) != 0 || value[8] == '\0')
		return -1;
	/* Digits only, no sign, no leading zero: one spelling per device. */
	if (value[8] == '0' && value[9] != '\0')
		return -1;
	for (p = value + 8; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		n = n * 10 + (*p - '0');
		if (n > INT_MAX / 10)
			return -1;
	}
	*kind = CFG_CLK_PHC;
	*phc_index = (int)n;
	return 0;
}

enum cfg_clock_kind
cfg_clock_auto_kind(int time_stamping)
{
	return time_stamping == CFG_TS_SOFTWARE ? CFG_CLK_SYSTEM : CFG_CLK_PHC;
}

/* ---- enum value tables ---- */

static const struct cfg_enum_val as_capable_vals[] = {
	{ "true", 0, IMPL }, { "auto", 1, IMPL }, { NULL, 0, IMPL },
};
static const struct cfg_enum_val bmca_vals[] = {
	{ "ptp", 0, IMPL }, { "noop", 1, IMPL }, { NULL, 0, IMPL },
};
/* Of ptp4l's servos, ptpsep has pi and linreg; the others are an error.
 * kalman is ptpsep's own, and the default (issue 12). */
static const struct cfg_enum_val clock_servo_vals[] = {
	{ "kalman", CFG_SERVO_KALMAN, IMPL },
	{ "pi", CFG_SERVO_PI, IMPL },
	{ "linreg", CFG_SERVO_LINREG, IMPL },
	{ "ntpshm", CFG_SERVO_NTPSHM, UNIMPL },
	{ "nullf", CFG_SERVO_NULLF, UNIMPL },
	{ "refclock_sock", CFG_SERVO_REFCLOCK_SOCK, UNIMPL },	/* 4.x */
	{ NULL, 0, IMPL },
};
static const struct cfg_enum_val clock_type_vals[] = {
	{ "OC", 0, IMPL }, { "BC", 1, IMPL }, { "P2P_TC", 2, IMPL },
	{ "E2E_TC", 3, IMPL }, { NULL, 0, IMPL },
};
static const struct cfg_enum_val dataset_comparison_vals[] = {
	{ "ieee1588", 0, IMPL }, { "G.8275.x", 1, IMPL }, { NULL, 0, IMPL },
};
static const struct cfg_enum_val system_clock_device_vals[] = {
	{ "system", CFG_SYSCLK_SYSTEM, IMPL },
	{ "virtual", CFG_SYSCLK_VIRTUAL, IMPL },
	{ NULL, 0, IMPL },
};
static const struct cfg_enum_val delay_filter_vals[] = {
	{ "moving_average", CFG_FILTER_MOVING_AVERAGE, IMPL },
	{ "moving_median", CFG_FILTER_MOVING_MEDIAN, IMPL },
	{ NULL, 0, IMPL },
};
/* IEEE 1588-2019 11.3 (E2E) and 11.4 (P2P); Auto is ptp4l's own switch. */
static const struct cfg_enum_val delay_mechanism_vals[] = {
	{ "Auto", CFG_DM_AUTO, UNIMPL },
	{ "COMMON_P2P", CFG_DM_COMMON_P2P, UNIMPL },	/* 4.x */
	{ "E2E", CFG_DM_E2E, IMPL },
	{ "P2P", CFG_DM_P2P, IMPL },
	{ "NONE", CFG_DM_NONE, UNIMPL },		/* 4.x */
	{ NULL, 0, IMPL },
};
static const struct cfg_enum_val extts_polarity_vals[] = {
	{ "rising", 1, IMPL }, { "falling", 2, IMPL }, { "both", 3, IMPL },
	{ NULL, 0, IMPL },
};
static const struct cfg_enum_val hwts_filter_vals[] = {
	{ "normal", 0, IMPL }, { "check", 1, IMPL }, { "full", 2, IMPL },
	{ NULL, 0, IMPL },
};
static const struct cfg_enum_val network_transport_vals[] = {
	{ "L2", CFG_TRANS_L2, IMPL },
	{ "UDPv4", CFG_TRANS_UDPV4, IMPL },
	{ "UDPv6", CFG_TRANS_UDPV6, IMPL },
	{ NULL, 0, IMPL },
};
static const struct cfg_enum_val power_profile_vals[] = {
	{ "none", 0, IMPL }, { "2011", 1, IMPL }, { "2017", 2, IMPL },
	{ NULL, 0, IMPL },
};
/* onestep/p2p1step imply twoStepFlag 0 (cli_step_mode()). */
static const struct cfg_enum_val time_stamping_vals[] = {
	{ "hardware", CFG_TS_HARDWARE, IMPL },
	{ "software", CFG_TS_SOFTWARE, IMPL },
	{ "legacy", CFG_TS_LEGACY, UNIMPL },
	{ "onestep", CFG_TS_ONESTEP, IMPL },
	{ "p2p1step", CFG_TS_P2P1STEP, IMPL },
	{ NULL, 0, IMPL },
};
static const struct cfg_enum_val tsproc_mode_vals[] = {
	{ "filter", CFG_TSPROC_FILTER, IMPL },
	{ "raw", CFG_TSPROC_RAW, IMPL },
	{ "filter_weight", CFG_TSPROC_FILTER_WEIGHT, IMPL },
	{ "raw_weight", CFG_TSPROC_RAW_WEIGHT, IMPL },
	{ NULL, 0, IMPL },
};
/* Keywords an int key accepts besides numbers (ptp4l's "ASAP"). */
static const struct cfg_enum_val fault_reset_words[] = {
	{ "ASAP", CFG_FRI_ASAP, IMPL }, { NULL, 0, IMPL },
};
static const struct cfg_enum_val fault_badpeernet_words[] = {
	{ "ASAP", 0, IMPL }, { NULL, 0, IMPL },
};

#define RUN_DIR "/run/ptpsep/"

/* Sorted by strcmp() of the name: upper case sorts before lower case. */
static const struct cfg_key keys[] = {
	P_ENU("BMCA", UNIMPL, 0, bmca_vals),
	G_INT("G.8275.defaultDS.localPriority", IMPL, 128, 1, UINT8_MAX),
	P_INT("G.8275.portDS.localPriority", IMPL, 128, 1, UINT8_MAX),
	ITEM_I64("active_key_id", CFG_SC_PORT, UNIMPL, CFG_KF_PTP4L_4X,
	    0, 0, UINT32_MAX),
	O_STR("admin_group", "ptpsep-admin", check_account),
	/* ptpsep's own: may netd step the clock at all? */
	O_INT("allow_step", 1, 0, 1),
	P_INT4("allow_unauth", 0, 0, 2),
	P_INT4("allowedLostResponses", 3, 1, UINT8_MAX),
	P_INT("announceReceiptTimeout", IMPL, 3, 2, UINT8_MAX),
	P_ENU("asCapable", UNIMPL, 1, as_capable_vals),
	G_INT("assume_two_step", UNIMPL, 0, 0, 1),
	P_INT("boundary_clock_jbod", UNIMPL, 0, 0, 1),
	G_INT("check_fup_sync", UNIMPL, 0, 0, 1),
	/* slaveOnly's name since linuxptp 4.0 (IEEE 1588-2019 wording). */
	ITEM_INT("clientOnly", CFG_SC_GLOBAL, IMPL, CFG_KF_PTP4L_4X, 0, 0, 1, NULL),
	G_INT("clockAccuracy", IMPL, 0xfe, 0, UINT8_MAX),
	G_INT("clockClass", IMPL, 248, 0, UINT8_MAX),
	G_STR("clockIdentity", UNIMPL, "000000.0000.000000"),
	/* ptp4l 4.x's key, implemented (clockd/bmc.c). */
	ITEM_INT("clock_class_threshold", CFG_SC_GLOBAL, IMPL, CFG_KF_PTP4L_4X,
	    248, 6, 248, NULL),
	O_STR("clock_device", "auto", check_clock_device),
	G_ENU("clock_servo", IMPL, CFG_SERVO_KALMAN, clock_servo_vals),
	G_ENU("clock_type", UNIMPL, 0, clock_type_vals),
	/* In a directory of its own, owned by clockd_user: clockd creates the
	 * socket after dropping privileges, and /run/ptpsep stays root's. */
	O_STR("clockd_ctl_socket", RUN_DIR "clockd/ctl.sock", check_socket_path),
	O_STR("clockd_user", "ptpsep-clockd", check_account),
	P_STR4("cmlds.client_address", "/var/run/cmlds_client"),
	P_INT4("cmlds.domainNumber", 0, 0, 255),
	P_INT4("cmlds.majorSdoId", 2, 0, 0x0f),
	P_INT4("cmlds.port", 0, 0, UINT16_MAX),
	P_STR4("cmlds.server_address", "/var/run/cmlds_server"),
	G_ENU("dataset_comparison", IMPL, 0, dataset_comparison_vals),
	P_INT("delayAsymmetry", IMPL, 0, INT_MIN, INT_MAX),
	P_ENU("delay_filter", IMPL, CFG_FILTER_MOVING_MEDIAN, delay_filter_vals),
	P_INT("delay_filter_length", IMPL, 10, 1, INT_MAX),
	P_ENU("delay_mechanism", IMPL, CFG_DM_E2E, delay_mechanism_vals),
	P_INT4("delay_response_timeout", 0, 0, UINT8_MAX),
	/* 0..127 as ptp4l 3.1 (4.x: 255); IEEE 1588-2019 Table 2 reserves
	 * 128..255. */
	G_INT("domainNumber", IMPL, 0, 0, 127),
	G_INT("dscp_event", IMPL, 0, 0, 63),
	G_INT("dscp_general", IMPL, 0, 0, 63),
	P_INT("egressLatency", UNIMPL, 0, INT_MIN, INT_MAX),
	ITEM_INT("fault_badpeernet_interval", CFG_SC_PORT, UNIMPL, 0,
	    16, INT32_MIN, INT32_MAX, fault_badpeernet_words),
	ITEM_INT("fault_reset_interval", CFG_SC_PORT, IMPL, 0,
	    4, INT8_MIN, INT8_MAX, fault_reset_words),
	G_DBL("first_step_threshold", IMPL, 0.00002, 0.0, DBL_MAX),
	P_INT("follow_up_info", UNIMPL, 0, 0, 1),
	G_INT("free_running", IMPL, 0, 0, 1),
	P_INT("freq_est_interval", UNIMPL, 1, 0, INT_MAX),
	G_INT("gmCapable", UNIMPL, 1, 0, 1),
	/*
	 * ptpsep's own: the clockClass announced in holdover (the last
	 * grandmaster lost while the servo was locked), 0: off (the own
	 * clockClass at once); after holdover_timeout s the own clockClass
	 * again, 0: not before a grandmaster returns.  G.8275.1's 6 -> 7 ->
	 * 140: clockClass 140, holdover_clock_class 7 (clockd/holdover.h).
	 */
	O_INT("holdover_clock_class", 0, 0, UINT8_MAX),
	O_INT("holdover_timeout", 0, 0, INT_MAX),
	G_ENU("hwts_filter", UNIMPL, 0, hwts_filter_vals),
	P_INT("hybrid_e2e", IMPL, 0, 0, 1),
	P_INT("ignore_source_id", UNIMPL, 0, 0, 1),
	P_INT("ignore_transport_specific", UNIMPL, 0, 0, 1),
	P_INT("ingressLatency", UNIMPL, 0, INT_MIN, INT_MAX),
	P_INT("inhibit_announce", UNIMPL, 0, 0, 1),
	P_INT("inhibit_delay_req", UNIMPL, 0, 0, 1),
	P_INT("inhibit_multicast_service", IMPL, 0, 0, 1),
	G_INT("initial_delay", UNIMPL, 0, 0, INT_MAX),
	P_INT4("interface_rate_tlv", 0, 0, 1),
	G_INT("kernel_leap", IMPL, 1, 0, 1),
	G_STR("leapfile", IMPL, NULL),
	P_INT("logAnnounceInterval", IMPL, 1, INT8_MIN, INT8_MAX),
	P_INT("logMinDelayReqInterval", IMPL, 0, INT8_MIN, INT8_MAX),
	P_INT("logMinPdelayReqInterval", IMPL, 0, INT8_MIN, INT8_MAX),
	P_INT("logSyncInterval", IMPL, 0, INT8_MIN, INT8_MAX),
	/* syslog levels LOG_EMERG..LOG_DEBUG; 6 is LOG_INFO. */
	G_INT("logging_level", IMPL, 6, 0, 7),
	G_STR("manufacturerIdentity", IMPL, "00:00:00"),
	/* ptp4l 3.1's name for serverOnly. */
	ITEM_ALIAS("masterOnly", "serverOnly", 0),
	G_INT("maxStepsRemoved", IMPL, 255, 2, UINT8_MAX),
	/*
	 * ptpsep's own: netd refuses a frequency adjustment beyond this (ppb).
	 * 500000 is the kernel's limit for CLOCK_REALTIME (adjtimex MAXFREQ).
	 */
	O_DBL("max_freq_ppb", 500000.0, 0.0, 1e9),
	G_INT("max_frequency", IMPL, 900000000, 0, INT_MAX),
	/* ptpsep's own: largest step netd performs, ns; 0: no limit. */
	O_I64("max_step_ns", 0, 0, INT64_MAX),
	/*
	 * ptpsep's own: steps allowed per step_limit_interval; 0: no limit.
	 * netd remembers at most 64 steps (CLOCK_MAX_STEPS_LIMIT).
	 */
	O_INT("max_steps_per_interval", 4, 0, 64),
	/*
	 * ptpsep's own: unicast peers netd keeps per port (learned from
	 * frames or configured); 44 octets each plus 4 per hash bucket,
	 * mapped at start, touched as peers come (netd/transport_peer.c).
	 */
	O_INT("max_unicast_peers", 16384, 16, 1 << 20),
	G_STR("message_tag", IMPL, NULL),
	/* ptpsep's own: may Management messages from the network SET? */
	O_INT("mgmt_set_from_network", 0, 0, 1),
	/*
	 * ptpsep's own: netd refuses (RATE_LIMITED) a frequency adjustment
	 * that comes sooner than this after the last one, ms; 0: no limit.
	 */
	O_INT("min_adj_interval_ms", 1, 0, 10000),
	P_INT("min_neighbor_prop_delay", IMPL, -20000000, INT_MIN, -1),
	P_INT("msg_interval_request", UNIMPL, 0, 0, 1),
	P_INT("neighborPropDelayThresh", IMPL, 20000000, 0, INT_MAX),
	P_INT("net_sync_monitor", UNIMPL, 0, 0, 1),
	O_STR("netd_ctl_socket", RUN_DIR "netd-ctl.sock", check_socket_path),
	O_STR("netd_socket", RUN_DIR "netd.sock", check_socket_path),
	O_STR("netd_user", "ptpsep-netd", check_account),
	P_ENU("network_transport", IMPL, CFG_TRANS_UDPV4,
	    network_transport_vals),
	G_INT("ntpshm_segment", UNIMPL, 0, INT_MIN, INT_MAX),
	G_INT("offsetScaledLogVariance", IMPL, 0xffff, 0, UINT16_MAX),
	P_INT("operLogPdelayReqInterval", UNIMPL, 0, INT8_MIN, INT8_MAX),
	P_INT("operLogSyncInterval", UNIMPL, 0, INT8_MIN, INT8_MAX),
	P_STR4("p2p_dst_ipv4", "224.0.0.107"),
	P_STR4("p2p_dst_ipv6", "FF02:0:0:0:0:0:0:6B"),
	ITEM_STR("p2p_dst_mac", CFG_SC_PORT, IMPL, 0, "01:80:C2:00:00:0E",
	    check_mac, NULL),
	P_INT("path_trace_enabled", UNIMPL, 0, 0, 1),
	P_INT4("phc_index", -1, -1, INT_MAX),
	/* Old names ptp4l still accepts, with a warning. */
	ITEM_ALIAS("pi_f_offset_const", "first_step_threshold", CFG_KF_DEPRECATED),
	G_DBL("pi_integral_const", IMPL, 0.0, 0.0, DBL_MAX),
	G_DBL("pi_integral_exponent", IMPL, 0.4, -DBL_MAX, DBL_MAX),
	G_DBL("pi_integral_norm_max", IMPL, 0.3, DBL_MIN, 2.0),
	G_DBL("pi_integral_scale", IMPL, 0.0, 0.0, DBL_MAX),
	ITEM_ALIAS("pi_max_frequency", "max_frequency", CFG_KF_DEPRECATED),
	ITEM_ALIAS("pi_offset_const", "step_threshold", CFG_KF_DEPRECATED),
	G_DBL("pi_proportional_const", IMPL, 0.0, 0.0, DBL_MAX),
	G_DBL("pi_proportional_exponent", IMPL, -0.3, -DBL_MAX, DBL_MAX),
	G_DBL("pi_proportional_norm_max", IMPL, 0.7, DBL_MIN, 1.0),
	G_DBL("pi_proportional_scale", IMPL, 0.0, 0.0, DBL_MAX),
	/* ptpsep's own: where clockd serves PTP management (pmc). */
	O_STR("pmc_socket", RUN_DIR "clockd/pmc.sock", check_socket_path),
	/* ptpsep's own: messages/s netd sends on a port at most; 0: no limit. */
	O_INT("port_tx_rate", 1000000, 0, 100000000),
	/* 4.x: 0xFFFFFFFF in an int, that is -1, means "not set". */
	P_INT4("power_profile.2011.grandmasterTimeInaccuracy", -1, -1, INT_MAX),
	P_INT4("power_profile.2011.networkTimeInaccuracy", -1, -1, INT_MAX),
	P_INT4("power_profile.2017.totalTimeInaccuracy", -1, -1, INT_MAX),
	P_INT4("power_profile.grandmasterID", 0, 0, 0xffff),
	ITEM_ENU("power_profile.version", CFG_SC_PORT, UNIMPL,
	    CFG_KF_PTP4L_4X, 0, power_profile_vals),
	G_INT("priority1", IMPL, 128, 0, UINT8_MAX),
	G_INT("priority2", IMPL, 128, 0, UINT8_MAX),
	G_STR("productDescription", IMPL, ";;"),
	P_STR4("ptp_dst_ipv4", "224.0.1.129"),
	P_STR4("ptp_dst_ipv6", "FF0E:0:0:0:0:0:0:181"),
	ITEM_STR("ptp_dst_mac", CFG_SC_PORT, IMPL, 0, "01:1B:19:00:00:00",
	    check_mac, NULL),
	G_INT4("ptp_minor_version", 1, 0, 1),
	G_STR4("refclock_sock_address", "/var/run/refclock.ptp.sock"),
	G_STR("revisionData", IMPL, ";;"),
	G_STR4("sa_file", NULL),
	G_INT("sanity_freq_limit", IMPL, 200000000, 0, INT_MAX),
	/* masterOnly's name since linuxptp 4.0. */
	ITEM_INT("serverOnly", CFG_SC_PORT, IMPL, CFG_KF_PTP4L_4X, 0, 0, 1, NULL),
	G_INT("servo_num_offset_values", UNIMPL, 10, 0, INT_MAX),
	G_INT("servo_offset_threshold", UNIMPL, 0, 0, INT_MAX),
	/* ptp4l 3.1's name for clientOnly. */
	ITEM_ALIAS("slaveOnly", "clientOnly", 0),
	G_STR("slave_event_monitor", UNIMPL, ""),
	G_INT("socket_priority", UNIMPL, 0, 0, 15),
	P_INT4("spp", -1, -1, UINT8_MAX),
	/* ptpsep's own: the window of max_steps_per_interval, seconds. */
	O_INT("step_limit_interval", 60, 1, 86400),
	G_DBL("step_threshold", IMPL, 0.0, 0.0, DBL_MAX),
	G_INT4("step_window", 0, 0, INT_MAX),
	G_INT("summary_interval", IMPL, 0, INT_MIN, INT_MAX),
	P_INT("syncReceiptTimeout", IMPL, 0, 0, UINT8_MAX),
	/*
	 * ptpsep's own (doc/design.md, the system clock from the PHC): netd
	 * keeps the system clock as a second clock beside clock_device, which
	 * clockd steers from (or towards) the PTP clock as phc2sys -a -r.
	 */
	O_INT("sync_system_clock", 0, 0, 1),
	/* Which: CLOCK_REALTIME, or a second virtual clock for the tests. */
	O_ENU("system_clock_device", CFG_SYSCLK_SYSTEM,
	    system_clock_device_vals),
	/* PHC to system clock samples per comparison (phc2sys -N). */
	O_INT("system_clock_samples", 5, 1, 25),
	/* ptpsep's own: how often clockd compares the system clock with the
	 * PTP clock (sync_system_clock 1), Hz, as phc2sys -R. */
	O_DBL("system_clock_update_rate", 1.0, 0.01, 64.0),
	G_INT("tc_spanning_tree", UNIMPL, 0, 0, 1),
	/* IEEE 1588-2019 7.6.2.8: 0xA0 is INTERNAL_OSCILLATOR. */
	G_INT("timeSource", IMPL, 0xa0, 0x10, 0xfe),
	G_ENU("time_stamping", IMPL, CFG_TS_HARDWARE, time_stamping_vals),
	P_INT("transportSpecific", UNIMPL, 0, 0, 0x0f),
	P_INT("ts2phc.channel", UNIMPL, 0, 0, INT_MAX),
	P_INT("ts2phc.extts_correction", UNIMPL, 0, INT_MIN, INT_MAX),
	P_ENU("ts2phc.extts_polarity", UNIMPL, 1, extts_polarity_vals),
	P_INT4("ts2phc.holdover", 0, 0, INT_MAX),
	P_INT("ts2phc.master", UNIMPL, 0, 0, 1),
	P_INT4("ts2phc.nmea_baudrate", 9600, 300, INT_MAX),
	P_INT4("ts2phc.nmea_delay", 0, INT_MIN, INT_MAX),
	G_STR("ts2phc.nmea_remote_host", UNIMPL, ""),
	G_STR("ts2phc.nmea_remote_port", UNIMPL, ""),
	G_STR("ts2phc.nmea_serialport", UNIMPL, "/dev/ttyS0"),
	/* 4.x's default -1 lies outside its 0..999999999; -1 kept valid. */
	P_INT4("ts2phc.perout_phase", -1, -1, 999999999),
	P_INT("ts2phc.pin_index", UNIMPL, 0, 0, INT_MAX),
	G_INT("ts2phc.pulsewidth", UNIMPL, 500000000, 1000000, 999000000),
	G_STR4("ts2phc.tod_source", "generic"),
	P_ENU("tsproc_mode", UNIMPL, CFG_TSPROC_FILTER, tsproc_mode_vals),
	G_INT("twoStepFlag", IMPL, 1, 0, 1),
	/* ms; 1 as ptp4l 3.1 (4.x: 10). */
	G_INT("tx_timestamp_timeout", IMPL, 1, 1, INT_MAX),
	/* RFC 4291 2.7 multicast scope nibble; 0xE is global. */
	P_INT("udp6_scope", IMPL, 0x0e, 0x00, 0x0f),
	P_INT("udp_ttl", IMPL, 1, 1, UINT8_MAX),
	ITEM_STR("uds_address", CFG_SC_GLOBAL, UNIMPL, 0, "/var/run/ptp4l",
	    NULL, "clockd serves management messages on pmc_socket"),
	P_INT4("uds_file_mode", 0660, 0, 0777),
	G_STR4("uds_ro_address", "/var/run/ptp4lro"),
	P_INT4("uds_ro_file_mode", 0666, 0, 0777),
	P_INT("unicast_listen", IMPL, 0, 0, 1),
	/* lib/cfg_utab.c; netd admits, clockd asks its masters. */
	P_INT("unicast_master_table", IMPL, 0, 0, INT_MAX),
	/*
	 * ptpsep's own: a unicast server's limits (clockd/uneg.h).  A REQUEST
	 * beyond them is refused with durationField 0 (16.1.4.2); one for
	 * longer than unicast_max_duration s is granted for that long.
	 */
	O_INT("unicast_max_clients", 1024, 1, 1 << 20),
	O_INT("unicast_max_duration", 3600, 10, INT_MAX),
	O_INT("unicast_min_log_interval", -7, -30, 30),
	/*
	 * ptpsep's own: netd forgets a unicast peer not heard for this many
	 * s (longer than ptp4l's longest grant, unicast_req_duration 3600,
	 * which its client renews before the end); and the messages/s and
	 * burst netd sends one peer at most: 5 x 128/s, Sync, Follow_Up,
	 * Delay_Resp and Announce at the fastest logInterMessagePeriod (-7)
	 * and as much again for Signaling, Management and peer delay.
	 */
	O_INT("unicast_peer_timeout", 3900, 10, 86400),
	O_INT("unicast_peer_tx_burst", 64, 1, 1000000),
	O_INT("unicast_peer_tx_rate", 640, 0, 1000000),
	P_INT("unicast_req_duration", IMPL, 3600, 10, INT_MAX),
	G_INT("use_syslog", IMPL, 1, 0, 1),
	G_STR("userDescription", IMPL, ""),
	/* TAI - UTC since 2017-01-01. */
	G_INT("utc_offset", IMPL, 37, 0, INT_MAX),
	G_INT("verbose", IMPL, 0, 0, 1),
	/* ptpsep's own: the virtual clock's frequency error, ppb. */
	O_DBL("virtual_clock_freq_ppb", 0.0, -1e6, 1e6),
	/*
	 * ptpsep's own: the virtual clock's start offset from CLOCK_REALTIME,
	 * ns.  +-1e18 (31 years) leaves headroom so that offset + realtime
	 * cannot overflow an int64_t.
	 */
	O_I64("virtual_clock_offset_ns", 0, -1000000000000000000LL,
	    1000000000000000000LL),
	/* ptpsep's own: as virtual_clock_*, for system_clock_device virtual. */
	O_DBL("virtual_system_clock_freq_ppb", 0.0, -1e6, 1e6),
	O_I64("virtual_system_clock_offset_ns", 0, -1000000000000000000LL,
	    1000000000000000000LL),
	G_INT("write_phase_mode", UNIMPL, 0, 0, 1),
};

#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

size_t
cfg_key_count(void)
{
	return N_KEYS;
}

const struct cfg_key *
cfg_key_at(size_t i)
{
	return i < N_KEYS ? &keys[i] : NULL;
}

static int
key_cmp(const void *name, const void *elem)
{
	return strcmp(name, ((const struct cfg_key *)elem)->name);
}

const struct cfg_key *
cfg_key_find(const char *name)
{
	return bsearch(name, keys, N_KEYS, sizeof(keys[0]), key_cmp);
}

/* ---- unknown key suggestions ---- */

/* Optimal string alignment distance, for "did you mean". */
static size_t
osa_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t rows[3][KEY_NAME_MAX + 1], *pp, *p, *c;

	if (la > KEY_NAME_MAX || lb > KEY_NAME_MAX)
		return SIZE_MAX;
	/* Row r lives in rows[r % 3]. */
	for (j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (i = 1; i <= la; i++) {
		pp = rows[(i + 1) % 3];	/* row i - 2 */
		p = rows[(i + 2) % 3];	/* row i - 1 */
		c = rows[i % 3];	/* row i */
		c[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = p[j] + 1;

			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (p[j - 1] + cost < v)
				v = p[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
	}
	return rows[la % 3][lb];
}

const char *
cfg_key_suggest(const char *name)
{
	const char *best = NULL;
	size_t i, d, best_d = SIZE_MAX, limit, len = strlen(name);

	limit = len <= 4 ? 1 : 2;
	for (i = 0; i < cfg_key_count(); i++) {
		const char *k = cfg_key_at(i)->name;

		if (strcasecmp(k, name) == 0)
			return k;
		/* Lengths further apart than the limit cannot match. */
		if (strlen(k) + limit < len || len + limit < strlen(k))
			continue;
		d = osa_distance(name, k);
		if (d <= limit && d < best_d) {
			best_d = d;
			best = k;
		}
	}
	return best;
}

static int
enum_has_value(const struct cfg_enum_val *v, int64_t value)
{
	for (; v->name != NULL; v++)
		if (v->value == value)
			return 1;
	return 0;
}

static int
check_key(const struct cfg_key *k)
{
	const struct cfg_key *t;

	if (k->alias_of != NULL) {
		/* One level only: the parser resolves an alias once. */
		t = cfg_key_find(k->alias_of);
		if (t == NULL || t->alias_of != NULL) {
			log_warnx("cfg: bug: alias %s of unknown key %s",
			    k->name, k->alias_of);
			return -1;
		}
		return 0;
	}
	switch (k->type) {
	case CFG_T_INT:
		if (k->imin < INT_MIN || k->imax > INT_MAX)
			goto bad_range;
		/* FALLTHROUGH */
	case CFG_T_INT64:
		if (k->imin > k->imax || k->idef < k->imin || k->idef > k->imax)
			goto bad_range;
		break;
	case CFG_T_DOUBLE:
		if (!(k->dmin <= k->dmax) || !(k->ddef >= k->dmin) ||
		    !(k->ddef <= k->dmax))
			goto bad_range;
		break;
	case CFG_T_ENUM:
		if (k->vals == NULL || !enum_has_value(k->vals, k->idef)) {
			log_warnx("cfg: bug: enum key %s: bad default", k->name);
			return -1;
		}
		break;
	case CFG_T_STRING:
		if (k->sdef != NULL && k->check != NULL &&
		    k->check(k->sdef) != NULL) {
			log_warnx("cfg: bug: key %s: default '%s' is invalid",
			    k->name, k->sdef);
			return -1;
		}
		break;
	default:
		log_warnx("cfg: bug: key %s: bad type", k->name);
		return -1;
	}
	return 0;
bad_range:
	log_warnx("cfg: bug: key %s: default outside its range", k->name);
	return -1;
}

int
cfg_keys_selftest(void)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < N_KEYS; i++) {
		if (i > 0 && strcmp(keys[i - 1].name, keys[i].name) >= 0) {
			log_warnx("cfg: bug: key table not sorted at %s",
			    keys[i].name);
			rc = -1;
		}
		if (check_key(&keys[i]) != 0)
			rc = -1;
	}
	return rc;
}
