/*
 * clockd.h - ptp-clockd's engine: the clock and its ports.
 *
 * Files: clock.c (the clock's life and run-time settings),
 * clock_datasets.c (its datasets and their updates), clock_decision.c (the
 * state decision over all ports), clock_netd.c (netd's messages into the
 * engine, as netd_types.h's structs), clock_servo.c (the servo and its
 * clock requests to netd), port.c (a port's state machine, timers and message
 * dispatch), port_master.c (what a port sends and answers as master and as
 * peer-delay responder), port_slave.c (Sync/Follow_Up/Delay and Pdelay
 * measurements that feed the servo), msg.c (building and sending
 * messages).  The pure decisions are fsm.c, bmc.c, foreign.c, servo*.c,
 * delay.c, filter.c and clock_policy.c (what may be asked of netd's clock,
 * UTC, sanity); this layer only wires them to netd.
 *
 * Time inside clockd is int64 ns in the timescale of netd's clock (netd
 * converts every timestamp before relaying it).
 */
#ifndef PTPSEP_CLOCKD_CLOCKD_H
#define PTPSEP_CLOCKD_CLOCKD_H

#include <stdint.h>

#include "bmc.h"
#include "clock_policy.h"
#include "delay.h"
#include "env.h"
#include "filter.h"
#include "foreign.h"
#include "fsm.h"
#include "leap.h"
#include "holdover.h"
#include "nbr.h"
#include "netd_types.h"
#include "ptp_msg.h"
#include "servo.h"
#include "sysclk.h"

struct cfg;
struct event_base;
struct clockd;
struct uneg_port;
struct uneg_srv;
struct uneg_cli;
struct uneg_peer;

#define CLOCKD_MAX_PORTS	32
/* E2E slave: overtaken Delay_Reqs still matched, and for how long */
#define DREQ_OLD_MAX		3
#define DREQ_OLD_NS		1000000000LL

/* Cookies of TxFrames: which message of which port a TX timestamp is for. */
#define COOKIE(port, type, seq) \
	(((uint64_t)(port) << 32) | ((uint64_t)(type) << 16) | (uint64_t)(seq))
#define COOKIE_PORT(c)	((unsigned)((c) >> 32))
#define COOKIE_TYPE(c)	((unsigned)(((c) >> 16) & 0xffff))
#define COOKIE_SEQ(c)	((uint16_t)((c) & 0xffff))

enum delay_mech {
	DM_E2E = 1,	/* ctl.proto DelayMechanism values */
	DM_P2P = 2,
};

struct cport {
	struct clockd		*c;
	unsigned		 index;		/* netd's port index */
	struct ptp_port_identity identity;	/* portDS.portIdentity */
	char			 iface[16];
	enum netd_transport	 transport;
	int			 link_up;
	int			 enabled;	/* ptpctl set port enable */
	enum fsm_kind		 kind;
	enum fsm_state		 state;
	int64_t			 state_since;	/* clock_now() ns */

	/* portDS (8.2.15) */
	int8_t			 log_announce_interval;
	int8_t			 log_sync_interval;
	int8_t			 log_min_delay_req_interval;
	int8_t			 log_min_pdelay_req_interval;
	uint8_t			 announce_receipt_timeout;
	uint8_t			 sync_receipt_timeout;	/* 0: none */
	enum delay_mech		 delay_mechanism;
	int64_t			 asymmetry;	/* scaled ns */

	struct fm_table		 foreign;
	struct bmc_dataset	 erbest;
	int			 have_erbest;

	/* timers */
	struct env_timer	*t_announce;	/* master: send Announce */
	struct env_timer	*t_sync;	/* master: send Sync */
	struct env_timer	*t_delay;	/* slave: Delay_Req */
	struct env_timer	*t_pdelay;	/* P2P: Pdelay_Req */
	struct env_timer	*t_rx_timeout;	/* announce receipt timeout */
	struct env_timer	*t_sync_rx;	/* slave: sync receipt timeout */
	struct env_timer	*t_qual;	/* PRE_MASTER qualification */
	struct env_timer	*t_fault;	/* FAULTY -> INITIALIZING */

	/* master: when the next Sync and Announce are due (clock_now()
	 * ns), kept on a fixed grid so that they never drift into each
	 * other: an Announce queued just before a Sync delays the Sync's
	 * software timestamps at the receiver on every other second */
	int64_t			 next_sync, next_announce;
	uint16_t		 seq_announce, seq_sync, seq_delay_req;
	uint16_t		 seq_pdelay_req, seq_signaling;

	/* slave: the Sync being matched with its Follow_Up */
	int			 sync_valid;
	uint16_t		 sync_seq;
	int			 sync_two_step;
	struct delay_sync	 sync;
	int			 fup_early;	/* Follow_Up came first */
	uint16_t		 fup_seq;
	struct ptp_timestamp	 fup_t1;
	int64_t			 fup_corr;
	/* the last complete Sync exchange (t1, t2) for E2E delay, the one
	 * before it, and the master/local rate ratio of the two: the E2E
	 * delay must not take the local clock's frequency error (up to the
	 * first step, tens of ppm) as path delay */
	int			 last_sync_valid;
	struct delay_sync	 last_sync;
	int			 prev_sync_valid;
	struct delay_sync	 prev_sync;
	int			 have_rr;
	double			 rate_ratio;

	/* slave, E2E: the Delay_Req in flight */
	int			 dreq_pending;
	uint16_t		 dreq_seq;
	int			 dreq_have_t3;
	struct ptp_timestamp	 dreq_t3;
	int			 dresp_early;	/* Delay_Resp before t3 */
	struct delay_req	 dreq;
	/* Delay_Reqs overtaken by a newer one before their Delay_Resp
	 * came: a master may answer late (netd holds a busy port's
	 * Delay_Reqs 20 ms), and ptp4l too matches a Delay_Resp to any
	 * of its recent Delay_Reqs (port_slave.c, dreq_old_*) */
	struct dreq_old {
		int			 used;
		uint16_t		 seq;
		int			 have_t3, have_t4;
		int64_t			 sent;	/* clock_now() */
		struct delay_req	 d;
	}			 dreq_old[DREQ_OLD_MAX];
	unsigned		 dreq_old_next;
	/* when the next Delay_Req is due (clock_now() ns): it leaves with
	 * the first Sync sample from then on, or from t_delay one Sync
	 * interval later (port_slave.c, slave_dreq_schedule()) */
	int64_t			 dreq_due;
	/* software stamps: t_delay armed to send it DREQ_COLD after the
	 * Sync sample; the next due time counts from dreq_from */
	int			 dreq_lagged;
	int64_t			 dreq_from;

	/* P2P initiator */
	int			 pdreq_pending;
	uint16_t		 pdreq_seq;
	int			 pd_have_t1, pd_have_resp, pd_have_fup;
	int			 pd_resp_two_step;
	struct delay_pdelay	 pd;
	struct ptp_port_identity pd_responder;

	struct filter		*delay_filter;
	int			 have_delay;
	int64_t			 path_delay;	/* filtered, scaled ns */
	struct delay_stats	 dstats;
	/* P2P: the neighbour's delay in range (asCapable, nbr.h) */
	struct nbr		 nbr;

	/* counters (kept, not reported yet) */
	uint64_t		 rx_msgs, tx_msgs, tx_ts_missing;

	/* unicast negotiation (port_uneg.c), NULL when not configured */
	struct uneg_port	*un;
	/* missing TX timestamps: logged at most every 10 s (a unicast
	 * client gone away misses one at every Sync), the rest counted */
	int64_t			 tx_ts_log_at;
	uint64_t		 tx_ts_quiet;
};

/* defaultDS, 8.2.1 */
struct ds_default {
	uint8_t			 clock_identity[PTP_CLOCK_ID_LEN];
	uint16_t		 number_ports;
	struct ptp_clock_quality quality;
	uint8_t			 priority1, priority2;
	uint8_t			 domain_number;
	int			 slave_only;
	int			 two_step;
	uint8_t			 sdo_id;
	uint8_t			 local_priority; /* G.8275.x: D0's (bmc.h) */
};

/* currentDS, 8.2.2 */
struct ds_current {
	uint16_t		 steps_removed;
	int64_t			 offset_from_master;	/* ns */
	int64_t			 mean_path_delay;	/* ns */
};

/* parentDS, 8.2.3 */
struct ds_parent {
	struct ptp_port_identity parent_port_identity;
	uint8_t			 gm_identity[PTP_CLOCK_ID_LEN];
	struct ptp_clock_quality gm_quality;
	uint8_t			 gm_priority1, gm_priority2;
};

/* timePropertiesDS, 8.2.4 */
struct ds_time_properties {
	int16_t			 current_utc_offset;
	uint16_t		 flags;		/* PTP_FLAG_* of the low octet */
	uint8_t			 time_source;
};

/* The leapfile and the grandmaster's reading of it (clock_leap.c). */
struct leapstate {
	int			 have_tab;	/* a leapfile was loaded */
	struct leaptab		 tab;
	int			 counts_tai;	/* netd's clock counts PTP time */
	struct env_timer	*t_read;	/* the next clock reading */
	uint64_t		 read_id;	/* the read in flight, 0: none */
	int			 have_props;	/* props from a reading */
	struct leap_props	 props;		/* announced as grandmaster */
	int			 warned_expired; /* the clock past the expiry */
	/* the leap second on the clock that counts UTC (kernel_leap 1) */
	int			 kernel_leap;
	int			 utc_clock;	/* -1 none, 0 PTP, 1 system */
	int			 utc_clock_virtual; /* it is a virtual clock */
	struct leap_arm		 arm;		/* as sent to netd */
	int			 tai_sent;	/* tai was sent (set_tai) */
	int			 tai;
	uint64_t		 set_id;	/* the ClockSetLeap in flight */
};

struct clockd {
	/* time, timers and netd (env.h): the engine's only way out */
	struct env		 env;
	/* the daemon's own sockets (ctlsrv.c, pmcsock.c) only; the engine
	 * never touches it (NULL in the simulator) */
	struct event_base	*base;
	struct cfg		*cfg;

	struct ds_default	 dds;
	struct ds_current	 cds;
	struct ds_parent	 pds;
	struct ds_time_properties tds;
	/* time_stamping p2p1step: the NIC also writes the Pdelay_Resp's
	 * turnaround (11.4.3 c); dds.two_step is 0 then */
	int			 p2p_one_step;
	int			 slave_port;	/* index, -1: none */
	int64_t			 gm_changed_at;

	unsigned		 nports;	/* of ports[], at the end */
	int			 have_ports;	/* netd's PortList arrived */

	/* servo and the clock in netd */
	struct servo		*servo;
	enum servo_state	 servo_state;
	/* in effect: the last change sent, unanswered (netd answers only a
	 * refusal), or what netd said after a refusal, or read */
	double			 freq_ppb;
	double			 max_freq_ppb;	/* netd's bound */
	int			 step_allowed;
	/* netd's other bounds (ClockInfo): clockd stays within them */
	uint64_t		 max_step_ns;		/* 0: none */
	int64_t			 min_adj_interval_ns;
	uint64_t		 refused_step_ns;	/* a refused step's size */
	/* an offset not to be stepped is slewed away (clock_policy.h) */
	int			 slewing;
	double			 slew_base;	/* the servo's frequency */
	int64_t			 step_retry_at;	/* after RATE_LIMITED */
	enum clock_refusal	 refusal;	/* shown by ptpctl status */
	enum clock_refusal	 refusal_logged;
	int64_t			 refusal_log_at;
	/* frequency changes no closer than min_adj_interval_ns and a margin
	 * (clock_servo.c) */
	struct env_timer	*t_adj;
	int64_t			 adj_last;	/* the last sent, or refused */
	uint64_t		 adj_id;	/* its request id, 0: none */
	double			 adj_want;	/* the servo's newest frequency */
	int			 adj_pending;	/* adj_want not sent yet */
	/* the frequency in effect since the last servo sample, when not the
	 * servo's (held back, refused): servo_applied() */
	double			 feff_int;	/* ppb x ns, feff_from..feff_at */
	int64_t			 feff_at, feff_from;
	int			 feff_off;
	int			 local_utc;	/* the clock counts UTC, not TAI */
	int			 utc_offset;	/* s, believed (cpol_utc_update) */
	int64_t			 step_ns;	/* the step in flight */
	uint64_t		 slew_done_ns;	/* slewed to here: servo again */
	struct cpol_sanity	 sanity;	/* sanity_freq_limit */
	uint64_t		 insane;	/* sanity check failures */
	int64_t			 insane_log_at;
	int			 stepping;	/* a step is in flight */
	uint64_t		 step_id;
	int			 step_guard;	/* drop Syncs from before it */
	int64_t			 step_mono, step_now;
	uint64_t		 clock_req_id;
	int			 freq_known;	/* netd told us the freq */
	/* configuration of the sample path, read with the servo
	 * (clock_create_servo), never per sample; ptpctl set changes none */
	int			 free_running;
	int			 summary_interval;
	int			 sw_ts;		/* time_stamping software */

	/* summary line, like ptp4l's, every 2^summary_interval s */
	int64_t			 sum_n, sum_max_abs;
	double			 sum_sq, sum_freq, sum_delay;
	int64_t			 last_offset;

	/* spike filter of offsets while locked (clock_servo.c) */
	double			 jitter;	/* EWMA of |offset|, ns */
	unsigned		 spike_run;
	uint64_t		 spikes;

	/* path delay held while the servo measures the frequency
	 * (clock_servo.c) */
	int64_t			 wait_delay;
	int			 wait_delay_valid;

	struct env_timer	*t_bmc;		/* deferred state decision */
	enum bmc_dscmp		 dscmp;		/* dataset_comparison */
	struct leapstate	 leap;		/* clock_leap.c */
	/* holdover (holdover.h): its schedule's next change re-runs the
	 * state decision (t_hold) */
	struct holdover		 hold;
	struct env_timer	*t_hold;
	/* the system clock's servo (sync_system_clock 1, sysclk.h) */
	struct sysclk		 sys;
	/*
	 * Last, and not cleared by clock_init(): 32 slots of ~3 KiB, of
	 * which a clock uses nports; port_create() clears each one it
	 * takes, so the pages of the unused slots are never touched (the
	 * daemon's struct clockd is static, zero and not resident).
	 */
	struct cport		 ports[CLOCKD_MAX_PORTS];
};

/* The id of the status read on every connection to netd (clock_netd.c);
 * the servo's requests take the ids after it. */
#define CLOCK_REQ_STATUS	1

/* ---- clock.c ---- */
/* Sets the engine up on env; asks env to connect to netd at the end. */
int	clock_init(struct clockd *c, const struct env *env, struct cfg *cfg);
void	clock_fini(struct clockd *c);
/* Now, monotonic ns (env.h). */
static inline int64_t
clock_now(const struct clockd *c)
{
	return env_now(&c->env);
}
/* Run-time settings (ptpctl set, ctlsrv.c); 0, or -1 if refused. */
int	clock_set_priority1(struct clockd *c, uint8_t v);
int	clock_set_priority2(struct clockd *c, uint8_t v);
int	clock_set_clock_class(struct clockd *c, uint8_t v);
int	clock_set_port_enabled(struct clockd *c, unsigned index, int enable);

/* ---- clock_datasets.c ---- */
/* 1 when clock_identity is this clock's (defaultDS.clockIdentity). */
int	clock_is_own(const struct clockd *c, const uint8_t *clock_identity);
/* 1 when the clock counts PTP time (a PHC, or virtual with
 * sync_system_clock 1), 0 for UTC (clock_device). */
int	clock_counts_ptp_time(const struct cfg *cfg);
/* This clock is the grandmaster (Tables 30/31). */
void	clock_update_grandmaster(struct clockd *c);
/* Parent and grandmaster from Ebest's Announce (Table 33). */
void	clock_update_slave(struct clockd *c, const struct fm_entry *e);
/* An Announce from the parent: refresh parentDS and timePropertiesDS. */
void	clock_update_from_parent(struct clockd *c, const struct ptp_msg *m);

/* ---- clock_leap.c ---- */
/* Reads the leapfile (before the sandbox): 0, or -1 (logged: clockd
 * stops).  No leapfile: 0 and nothing else happens. */
int	clock_leap_init(struct clockd *c);
void	clock_leap_fini(struct clockd *c);
/* clock_update_grandmaster(): currentUtcOffset and leap61/leap59 from
 * the leapfile at the clock's last reading (8.2.4). */
void	clock_leap_gm_time_properties(struct clockd *c);
/* 1 when r answers the leap reading (consumed), else 0. */
int	clock_leap_reply(struct clockd *c, const struct netd_clock_reply *r);
/* netd's PortList: which clock counts UTC and takes a leap second. */
void	clock_leap_connected(struct clockd *c, const struct netd_port_list *pl);
/* timePropertiesDS against the PTP clock's time ptp_ns (a sample's t2 or
 * a reading): arm, cancel or forget the leap on the UTC clock. */
void	clock_leap_update(struct clockd *c, int64_t ptp_ns);
/* 1 when r answers a ClockSetLeap (consumed), else 0. */
int	clock_leap_set_reply(struct clockd *c,
	    const struct netd_clock_reply *r);

/* ---- clock_decision.c ---- */
/* Asks for a state decision over all ports (coalesced, run soon). */
void	clock_state_decision_soon(struct clockd *c);
/* The decision itself: c->t_bmc's callback. */
void	clock_ev_bmc(void *arg);
void	clock_port_state_changed(struct clockd *c, struct cport *p,
	    enum fsm_state old);
/* Holdover's keys, its timer; clock_init() calls it.  0 or -1. */
int	clock_hold_init(struct clockd *c);
/* The BMCA's clock-wide keys (dataset_comparison,
 * G.8275.defaultDS.localPriority); clock_init() calls it.  0 or -1. */
int	clock_bmca_init(struct clockd *c);
/* A port's (G.8275.portDS.localPriority, maxStepsRemoved) into its
 * foreign-master table; port_create() calls it.  pn: the port's section
 * name or NULL. */
void	clock_port_bmca_init(struct clockd *c, struct cport *p,
	    const char *pn);
/* The clockClass this clock announces as grandmaster now: defaultDS's,
 * or the holdover schedule's (holdover.h). */
uint8_t	clock_class_now(const struct clockd *c);

/* ---- clock_netd.c ---- */
/* netd's messages into the engine (arg: the struct clockd *), from
 * env_event.c's netd_client or from the simulator. */
extern const struct netd_client_cbs clock_netd_cbs;

/* ---- clock_servo.c ---- */
/* A slave port measured offsetFromMaster; feed the servo. */
void	clock_synchronize(struct clockd *c, struct cport *p, int64_t t2_ns,
	    int64_t offset_ns, int64_t path_delay_ns);
/* 0 when a Sync's t2 may predate the last step (drop it). */
int	clock_t2_ok(const struct clockd *c, int64_t t2);
/* (Re)creates the servo, starting from freq (ppb). */
void	clock_create_servo(struct clockd *c, double freq);
/* Records and shows why the clock cannot do what the servo wants. */
void	clock_refuse(struct clockd *c, enum clock_refusal cr, int64_t offset);
/* netd's answers: a refused step (cr: why); a refused frequency change
 * (request id, why, the frequency in effect; an accepted one has none). */
void	clock_step_refused(struct clockd *c, enum clock_refusal cr);
void	clock_adj_refused(struct clockd *c, uint64_t id, enum clock_refusal cr,
	    double freq_ppb);
/* The rate limit's timer (min_adj_interval_ms). */
void	clock_ev_adj(void *arg);
/* The PTP clock following the system clock (sysclk.c, as grandmaster):
 * a frequency within the rate limit; a step by -offset, or the refusal
 * that kept it from being asked (CR_NONE: sent). */
/* The servo parameters the keys give (max_frequency, step thresholds,
 * pi_*), for software (sw) or hardware time stamps; returns how close a
 * slew must come to be done, ns.  Shared by both servos. */
struct servo_params;
uint64_t clock_servo_params(const struct cfg *cfg, int sw,
	    struct servo_params *sp);
void	clock_steer_freq(struct clockd *c, double ppb);
enum clock_refusal clock_steer_step(struct clockd *c, int64_t offset);

/* ---- port.c ---- */
int	port_create(struct clockd *c, struct cport *p, unsigned index,
	    const char *iface, enum netd_transport transport, int link_up);
void	port_destroy(struct cport *p);
void	port_dispatch(struct cport *p, enum fsm_event ev, int master_diff);
void	port_rx(struct cport *p, const struct netd_rx *f);
void	port_tx_ts(struct cport *p, unsigned type, uint16_t seq, int ok,
	    const struct ptp_timestamp *ts);
void	port_link(struct cport *p, int up);
void	port_netd_lost(struct cport *p);
int64_t	port_interval_ns(int8_t log_interval);
int64_t	port_random_ns(int64_t interval);
const char *port_state_name(const struct cport *p);

/* ---- port_master.c ---- */
void	master_announce(struct cport *p, struct ptp_msg *m, uint16_t seq,
	    int8_t log_interval);
void	master_send_announce(struct cport *p);
void	master_send_sync(struct cport *p);
void	master_rx_delay_req(struct cport *p, const struct ptp_msg *m,
	    const struct ptp_timestamp *t4);
void	responder_rx_pdelay_req(struct cport *p, const struct ptp_msg *m,
	    const struct ptp_timestamp *t2);
/* The Pdelay_Resp (and Follow_Up) for a request: 1 when fu goes too. */
int	responder_pdelay_resp(struct cport *p, const struct ptp_msg *req,
	    const struct ptp_timestamp *t2, struct ptp_msg *m,
	    struct ptp_msg *fu);

/* ---- port_slave.c ---- */
void	slave_rx_sync(struct cport *p, const struct ptp_msg *m,
	    const struct ptp_timestamp *t2);
void	slave_rx_follow_up(struct cport *p, const struct ptp_msg *m);
void	slave_send_delay_req(struct cport *p);
void	slave_dreq_schedule(struct cport *p, int64_t from);
void	slave_dreq_timer(struct cport *p);
void	slave_delay_req_tx_ts(struct cport *p, uint16_t seq,
	    const struct ptp_timestamp *t3);
void	slave_rx_delay_resp(struct cport *p, const struct ptp_msg *m);
void	p2p_send_pdelay_req(struct cport *p);
/* port.c: a new filtered path delay (P2P: the neighbour check, nbr.h) */
void	port_delay_sampled(struct cport *p);
void	p2p_pdelay_req_tx_ts(struct cport *p, uint16_t seq,
	    const struct ptp_timestamp *t1);
void	p2p_rx_pdelay_resp(struct cport *p, const struct ptp_msg *m,
	    const struct ptp_timestamp *t4);
void	p2p_rx_pdelay_resp_fup(struct cport *p, const struct ptp_msg *m);
void	slave_reset(struct cport *p);

/* ---- port_uneg.c: unicast negotiation (16.1) ---- */
/* The port's keys (unicast_listen, unicast_master_table, hybrid_e2e,
 * inhibit_multicast_service); p->un stays NULL when none is set. */
int	port_uneg_create(struct cport *p, const char *pn);
void	port_uneg_destroy(struct cport *p);
/* A Signaling message (13.12) received. */
void	port_uneg_rx(struct cport *p, const struct ptp_msg *m,
	    const struct netd_rx *f);
/* 1 when the Delay_Req was unicast and is answered (or dropped) here,
 * 0 for master_rx_delay_req(). */
int	port_uneg_rx_delay_req(struct cport *p, const struct ptp_msg *req,
	    const struct ptp_timestamp *t4, const struct netd_rx *f);
/* netd's peer table was reset (LinkEvent, netd lost): send unicast only
 * to addresses heard since. */
void	port_uneg_peers_reset(struct cport *p);
/* An Announce received: hybrid_e2e notes where its master is. */
void	port_uneg_heard(struct cport *p, const struct ptp_msg *m,
	    const struct netd_rx *f);
/* 1 with *to when a slave's Delay_Req goes unicast to its master. */
int	port_uneg_delay_req_to(struct cport *p, struct netd_addr *to);
/* 1: no multicast Announce and Sync (inhibit_multicast_service). */
int	port_uneg_inhibit_multicast(const struct cport *p);
/* The port's server, client and peer for ptpctl; NULL: not configured. */
const struct uneg_srv *port_uneg_srv(const struct cport *p);
const struct uneg_cli *port_uneg_cli(const struct cport *p);
const struct uneg_peer *port_uneg_peer(const struct cport *p);
/* 1 with *to when Pdelay_Req goes unicast to the table's peer_address. */
int	port_uneg_pdelay_req_to(struct cport *p, struct netd_addr *to);
/* 1 when the Pdelay_Req was unicast and is answered (or dropped) here,
 * 0 for responder_rx_pdelay_req(). */
int	port_uneg_rx_pdelay_req(struct cport *p, const struct ptp_msg *req,
	    const struct ptp_timestamp *t2, const struct netd_rx *f);

/* ---- msg.c ---- */
/* Fills the common header for a message of this port (13.3). */
void	msg_header(struct cport *p, struct ptp_msg *m, unsigned type,
	    uint16_t seq, int8_t log_interval);
/* Packs and sends; want_ts asks netd for the TX timestamp. */
int	msg_send(struct cport *p, struct ptp_msg *m, enum netd_dest dest,
	    int want_ts);
/*
 * Packs and sends a two-step event message ev with its follow-up fu,
 * whose timestamp netd writes in and sends once it has ev's TX timestamp
 * (netd.proto TxFrame.follow_up); netd reports a TX timestamp only when
 * that fails.
 */
int	msg_send_fu(struct cport *p, struct ptp_msg *ev, struct ptp_msg *fu,
	    enum netd_dest dest);
/*
 * A time stamp of a received type message as int64 ns (lib/ptp_time.c).
 * 0, or -EINVAL/-ERANGE when it cannot be represented: then the caller
 * drops the message; this counts it (dstats.invalid) and logs it, at
 * most one line per messageType every 10 s.  ns may be NULL.
 */
int	msg_time_ns(struct cport *p, unsigned type, const char *field,
	    const struct ptp_timestamp *ts, int64_t *ns);

#endif /* PTPSEP_CLOCKD_CLOCKD_H */
