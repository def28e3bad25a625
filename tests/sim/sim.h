/*
 * sim.h - ptpsim, a discrete-event simulator that runs clockd's real
 * engine (clockd/libclockd.a) on a simulated network (issue 12, item 2).
 *
 * Each node is one struct clockd driven through clockd/env.h: its "now"
 * is the simulated monotonic time, its timers are events of one queue,
 * and its channel to netd is played here: frames go onto simulated links,
 * clock requests are checked with netd's own bounds (netd/clock_bounds.c)
 * and applied to a model clock (model.h), and netd's answers come back
 * through clock_netd_cbs as the structs netd_client.c would give the
 * engine (clockd/netd_types.h), without protobuf.
 *
 * Files: ptpsim.c (command line, the run loop, scenario actions),
 * evq.c (the event queue), scenario.c (the scenario file), node.c (a
 * node's engine, its env, its netd's PortList and LinkEvents), netd_sim.c
 * (netd's clock requests and bounds), net.c (links, frames and time
 * stamps), report.c (samples, trace and summary); model.[ch] (clocks,
 * time stamps, links) and test_sim_core.c (evq.c, scenario.c).
 *
 * Determinism: one queue ordered by (time, insertion sequence), one
 * seeded RNG stream per node and per link, srandom(seed) for the engine's
 * random(), nothing taken from the host (no wall clock, no addresses in
 * the output).  The same scenario and seed give byte-identical stdout.
 */
#ifndef PTPSEP_SIM_H
#define PTPSEP_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clockd/env.h"
/* netd_tx_frame_fill(), netd_refusal_of(): what netd_client.c does at the
 * edge, the simulator does too */
#include "clockd/netd_client.h"
#include "model.h"

#define SIM_NAME_MAX	32
#define SIM_MAX_NODES	64
#define SIM_MAX_LINKS	64
#define SIM_MAX_PORTS	16	/* per node */
#define SIM_MAX_ENDS	16	/* per link */
#define SIM_PAYLOAD_MAX	1500
#define SIM_NSEC	1000000000LL

/*
 * True (TAI) time at simulated time 0, so that the clocks read like today
 * (2023-11-14); the engine's monotonic clock starts at SIM_MONO0.
 */
#define SIM_EPOCH_NS	(1700000000LL * SIM_NSEC)
#define SIM_MONO0_NS	SIM_NSEC

/* Latencies of the simulated netd (ns of simulated time). */
#define SIM_CONNECT_NS		1000000	/* clockd start to PortList */
#define SIM_CLOCK_REQ_NS	20000	/* ClockRequest to netd acting */
#define SIM_CLOCK_REPLY_NS	30000	/* netd acting to ClockReply */
#define SIM_LINK_EVENT_NS	100000	/* carrier change to LinkEvent */

/* ---- evq.c: a binary heap keyed (time, insertion sequence) ---- */

enum sim_ev_kind {
	SE_TIMER,	/* an engine timer (struct env_timer) */
	SE_FRAME,	/* a frame arrives at a port */
	SE_TXTS,	/* a TX time stamp reaches the engine */
	SE_CLOCK_REQ,	/* netd acts on a ClockRequest */
	SE_CLOCK_REPLY,	/* the ClockReply reaches the engine */
	SE_CONNECT,	/* netd's Hello and PortList reach the engine */
	SE_LINK_EVENT,	/* a LinkEvent reaches the engine */
	SE_ACTION,	/* a scenario action ([events]) */
	SE_SAMPLE,	/* record every node */
	SE_START,	/* a node's clockd starts late (sim_start) */
	SE_DISCONNECT,	/* netd closed the connection: clockd notices */
};

struct sim_ev {
	int64_t			 t;	/* simulated ns */
	uint64_t		 seq;
	int			 idx;	/* heap slot, -1: not queued */
	enum sim_ev_kind	 kind;
};

struct sim_evq {
	struct sim_ev		**heap;
	size_t			 n, cap;
	uint64_t		 seq;
};

int	evq_init(struct sim_evq *q);
void	evq_fini(struct sim_evq *q);
/* Queues ev at time t (it must not be queued). 0, or -1 on ENOMEM. */
int	evq_push(struct sim_evq *q, struct sim_ev *ev, int64_t t);
void	evq_remove(struct sim_evq *q, struct sim_ev *ev);
struct sim_ev *evq_pop(struct sim_evq *q);
const struct sim_ev *evq_peek(const struct sim_evq *q);

/* ---- scenario.c ---- */

struct sim_kv {
	char			*port;	/* NULL: [global]; else the link name */
	char			*key;
	char			*value;
	unsigned		 line;
};

struct sim_node_spec {
	char			 name[SIM_NAME_MAX];
	struct sim_kv		*kv;	/* ptp4l.conf keys for clockd/netd */
	size_t			 nkv;
	int64_t			 offset_ns;	/* sim_offset */
	double			 freq_ppb;	/* sim_freq */
	double			 wander;	/* sim_wander */
	int			 ts_kind;	/* enum sim_ts_kind */
	int64_t			 start_ns;	/* sim_start: clockd starts */
	int64_t			 txts_ns;	/* sim_txts_latency, -1: default */
	/* sim_ts_* overrides of the time-stamp model's fields */
	struct sim_ts_override {
		const char	*key;
		double		 value;
	}			 ts_set[16];
	unsigned		 nts_set;
	/* its system clock (netd's second, sync_system_clock 1):
	 * sim_sys_offset (from true UTC), sim_sys_freq, sim_sys_wander;
	 * the compare: sim_sysoff (-1: by the time stamps) and sim_sysoff_*
	 * overrides of the model's fields (model.h) */
	int64_t			 sys_offset_ns;
	double			 sys_freq_ppb;
	double			 sys_wander;
	int			 sysoff_kind;
	struct sim_ts_override	 sysoff_set[8];
	unsigned		 nsysoff_set;
	unsigned		 line;
};

struct sim_link_spec {
	char			 name[SIM_NAME_MAX];
	unsigned		 ends[SIM_MAX_ENDS];	/* node indexes */
	unsigned		 nends;
	struct sim_link_model	 model;
	unsigned		 line;
};

enum sim_act_kind {
	SA_LINK_DOWN,
	SA_LINK_UP,
	SA_LINK_SET,	/* delay, pdv, asymmetry, loss */
	SA_NODE_CRASH,
	SA_NODE_RESTART,
	SA_NODE_FREQ_STEP,
	SA_NODE_CLOCK_STEP,	/* the clock stepped behind netd's back */
	SA_NODE_NETD_RESTART,	/* netd restarts: new virtual clock */
	SA_NODE_SET,	/* clockClass, priority1, priority2 */
	SA_NODE_PORT,	/* port LINK enable|disable (value 1|0) */
};

struct sim_action {
	struct sim_ev		 ev;	/* first: the queue's entry */
	int64_t			 t;	/* simulated ns */
	enum sim_act_kind	 kind;
	unsigned		 target;	/* node or link index */
	char			 key[SIM_NAME_MAX];
	double			 value;
	int64_t			 step_ns;	/* SA_NODE_CLOCK_STEP */
	unsigned		 line;
};

struct sim_scenario {
	char			 path[256];
	int64_t			 duration_ns;
	uint64_t		 seed;
	int64_t			 sample_ns;
	int64_t			 measure_from_ns;
	int64_t			 lock_threshold_ns;
	int			 reference;	/* node index, -1: true time */
	int			 utc_offset_s;	/* TAI - UTC of this world */
	struct sim_node_spec	 nodes[SIM_MAX_NODES];
	unsigned		 nnodes;
	struct sim_link_spec	 links[SIM_MAX_LINKS];
	unsigned		 nlinks;
	struct sim_action	*acts;
	size_t			 nacts;
};

/* 0, or -1 after printing "file:line: why" to stderr. */
int	scenario_load(struct sim_scenario *s, const char *path);
void	scenario_free(struct sim_scenario *s);
int	scenario_node_index(const struct sim_scenario *s, const char *name);
int	scenario_link_index(const struct sim_scenario *s, const char *name);
/* Applies a node's sim_ts_* keys to its time-stamp model. */
void	scenario_ts_apply(const struct sim_node_spec *ns,
	    struct sim_ts_model *m);
/* Applies a node's sim_sysoff_* keys to its compare model. */
void	scenario_sysoff_apply(const struct sim_node_spec *ns,
	    struct sim_sysoff_model *m);

/* ---- node.c: one engine, its env and its netd ---- */

struct sim;
struct sim_node;
struct sim_msg;
struct clockd;
struct cfg;

struct sim_port {
	unsigned		 link;		/* link index */
	unsigned		 end;		/* our place among its ends */
	uint8_t			 mac[6];
};

/* Counters of the node's netd, for the summary. */
struct sim_node_stats {
	unsigned		 steps;		/* steps netd executed */
	unsigned		 steps_after_lock;
	unsigned		 refusals;	/* clock requests refused */
	unsigned		 adjs;		/* frequency changes executed */
	unsigned		 state_changes;	/* port state changes */
	unsigned		 crashes;
	unsigned		 netd_closes;	/* protocol violations (check.c) */
	/* the channel as netd_client.c's outbox makes it (node.c): engine
	 * events that woke clockd, its datagrams to netd (what one event
	 * sent, in batches of IPC_BATCH_MAX) and the messages in them */
	unsigned long		 wakeups, to_netd, to_netd_msgs;
	unsigned		 gm_changes;	/* parentDS.grandmasterIdentity */
	int64_t			 gm_change_t;	/* the last change, -1: none */
	int64_t			 slave_t;	/* first UNCALIBRATED or SLAVE */
	int64_t			*step_t;	/* simulated ns of each step */
	size_t			 nstep_t, capstep_t;
	/* the system clock's (netd_sim.c) */
	unsigned		 sys_steps, sys_refusals, sys_adjs;
	unsigned		 cmps, cmp_refusals;	/* ClockCompares */
};

struct sim_node {
	struct sim		*sim;
	unsigned		 index;
	const struct sim_node_spec *spec;
	struct cfg		*cfg;
	struct sim_port		 ports[SIM_MAX_PORTS];
	unsigned		 nports;
	uint8_t			 clock_id[8];
	struct env		 env;	/* ops and ctx (this node) */
	struct sim_ev		 start_ev;	/* SE_START */

	/* the engine: NULL while crashed */
	struct clockd		*c;
	/* the connection to netd: + 1 whenever one ends (a crash, netd
	 * closing it); what netd owed the old one is not delivered */
	uint64_t		 epoch;
	int			 connected;	/* PortList delivered */
	int			 woke;		/* this event reached clockd */
	unsigned		 out_n;		/* messages it sent netd */
	struct env_timer	*timers;	/* every live timer */
	int			 last_state[SIM_MAX_PORTS];
	uint8_t			 last_gm[8];	/* zero: none seen yet */

	/* netd's side: the clock it keeps running across clockd crashes */
	struct sim_rng		 rng_clock, rng_ts;
	struct sim_clock	 clock;
	struct sim_ts_model	 ts;
	double			 adj_ppb;	/* what netd set */
	void			*bounds;	/* struct clock_bounds, netd_sim.c */
	void			*bstate;	/* struct clock_bounds_state */
	/* with sync_system_clock 1, netd's second clock: the system clock
	 * on UTC, under the same bounds with a window of its own, and
	 * netd's compare of it with the PTP clock */
	int			 has_sys;
	struct sim_rng		 rng_sys, rng_cmp;
	struct sim_clock	 sys;
	double			 sys_adj_ppb;
	void			*sys_bstate;	/* struct clock_bounds_state */
	struct sim_sysoff_model	 cmp;
	int			 cmp_samples;	/* system_clock_samples */
	int64_t			 cmp_last_ns;	/* netd's rate limit */

	struct sim_node_stats	 st;
};

int	node_init(struct sim *sim, struct sim_node *n, unsigned index);
void	node_fini(struct sim_node *n);
/* Starts (or restarts) the engine; 0, or -1 (logged). */
int	node_start(struct sim_node *n);
/* The engine dies (clockd killed): netd's clock keeps running. */
void	node_crash(struct sim_node *n);
/* The node's port on that link (nports if none). */
unsigned node_port_of_link(const struct sim_node *n, const char *link);
/* Reading of the node's clock at the current simulated time. */
int64_t	node_clock_now(struct sim_node *n);
/* And of its system clock (has_sys). */
int64_t	node_sys_now(struct sim_node *n);
/* After an event reached the engine: count its port state changes. */
void	node_after_event(struct sim_node *n);
/* Event handlers (ptpsim.c dispatches to them). */
void	node_ev_timer(struct sim_ev *ev);
struct sim_node *node_of_timer(struct sim_ev *ev);
void	node_ev_connect(struct sim_node *n);
/*
 * netd restarts: the connection closes, netd's rate windows start
 * empty, and its virtual clock starts again from the configuration
 * (sim_offset from true time, no frequency adjustment; the oscillator's
 * error stays what it has become).
 */
void	node_netd_restart(struct sim_node *n);
/* netd closes the connection (the engine broke the protocol): clockd
 * sees it go, and reconnects after its first backoff. */
void	node_netd_close(struct sim_node *n, const char *why);
void	node_ev_disconnect(struct sim *sim, struct sim_msg *m);
/* The link of port changed: a LinkEvent for the engine, later. */
void	node_link_changed(struct sim_node *n, unsigned port);

/* ---- netd_sim.c: netd's clock requests, with netd's own bounds ---- */

/* The node's bounds from its configuration; 0, or -1 (logged). */
int	netd_sim_init(struct sim_node *n);
void	netd_sim_fini(struct sim_node *n);
/* A restarted netd remembers no step and no frequency change. */
void	netd_sim_bounds_reset(struct sim_node *n);
/* ClockInfo fields of the PortList. */
void	netd_sim_clock_info(const struct sim_node *n, double *max_freq_ppb,
	    int *step_allowed, int64_t *max_step_ns, uint32_t *min_adj_ms);
/* netd's check_send_frame() of a TxFrame: 0, or -1 with why (netd would
 * close the connection). */
int	netd_sim_check_frame(const struct sim_node *n, unsigned port,
	    int event, enum netd_dest dest, const struct netd_addr *unicast,
	    const uint8_t *payload, size_t len, int want_ts, const uint8_t *fu,
	    size_t fu_len, const char **why);
/* netd completes a TX-time-stamped frame's follow-up (held in m) with
 * the timestamp and sends it (netd/port.c port_txts_done()). */
struct ptp_timestamp;
int	netd_sim_follow_up(struct sim_node *n, struct sim_msg *m,
	    const struct ptp_timestamp *ts);
/* A ClockRequest reaches netd: check, apply, schedule the reply. */
enum sim_clk_op {
	SIM_CLK_READ, SIM_CLK_ADJFREQ, SIM_CLK_STEP,
	SIM_CLK_COMPARE,	/* the system clock minus the PTP clock */
	SIM_CLK_LEAP,		/* refused: no clock here takes a leap */
};
int	netd_sim_request(struct sim_node *n, uint64_t id, enum sim_clk_op op,
	    double ppb, int64_t step_ns);
/* Any request of env.h's clock_req (the system clock's, compares). */
int	netd_sim_clock_req(struct sim_node *n,
	    const struct netd_clock_req *q);
/* The ClockInfo of the system clock (PortList), 0; -1: none. */
int	netd_sim_sys_info(const struct sim_node *n,
	    struct netd_clock_info *ci);
/* A new netd: the system clock's windows and compare start over. */
void	netd_sim_sys_reset(struct sim_node *n);

/* ---- net.c: links and frames ---- */

struct sim_link {
	unsigned		 index;
	const struct sim_link_spec *spec;
	unsigned		 end_port[SIM_MAX_ENDS];	/* port of each end */
	struct sim_link_model	 model;	/* may change ([events] set) */
	struct sim_rng		 rng;
	int			 up;
	uint64_t		 frames, lost;
	/* last arrival from end i at end j: a link is a FIFO, PDV delays
	 * frames but never reorders them */
	int64_t			 last_arrival[SIM_MAX_ENDS][SIM_MAX_ENDS];
};

int	net_send(struct sim_node *n, unsigned port, int event, int dest,
	    const uint8_t *dst_mac, const uint8_t *payload, size_t len,
	    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len);
void	net_link_set(struct sim *sim, unsigned link, int up);

/* The pooled message events (frames, time stamps, replies, ...). */
struct sim_msg {
	struct sim_ev		 ev;	/* first */
	struct sim_msg		*next;	/* free list */
	unsigned		 node, port;
	uint64_t		 epoch;
	int			 event;		/* event message (class) */
	uint8_t			 src_mac[6];
	uint64_t		 cookie;	/* TXTS; ClockReply id */
	int			 ok;		/* TXTS ok; ClockReply ok */
	int			 reason;	/* ClockReply: RefuseReason */
	int64_t			 ts;		/* clock ns */
	double			 ppb;		/* ClockReply freq; request */
	int64_t			 step_ns;	/* request */
	int			 op;		/* request: enum sim_clk_op */
	int			 sys;		/* about the system clock */
	int			 leap;		/* SIM_CLK_LEAP */
	/* a compare's answer (ClockOffset) */
	int			 have_cmp;
	int64_t			 cmp_ns;	/* system minus PTP, raw */
	int64_t			 cmp_ptp_ns;	/* the PTP clock then */
	uint32_t		 cmp_delay;
	int			 cmp_method;	/* enum sim_sysoff_kind */
	size_t			 len;		/* TXTS: of the follow-up */
	uint8_t			 payload[SIM_PAYLOAD_MAX];	/* TXTS: follow-up */
};

struct sim_msg *sim_msg_get(struct sim *sim, enum sim_ev_kind kind,
	    const struct sim_node *n);
void	sim_msg_put(struct sim *sim, struct sim_msg *m);
void	net_ev_frame(struct sim *sim, struct sim_msg *m);
void	net_ev_txts(struct sim *sim, struct sim_msg *m);
void	netd_sim_ev_request(struct sim *sim, struct sim_msg *m);
void	node_ev_clock_reply(struct sim *sim, struct sim_msg *m);
void	node_ev_link_event(struct sim *sim, struct sim_msg *m);

/* ---- report.c ---- */

struct sim_sample_acc {
	double			 sum_sq;	/* samples >= measure_from */
	double			 sum;		/* and their sum */
	uint64_t		 n;
	int64_t			 max_abs;
	uint64_t		 n_lockwin;	/* samples before the 1st event */
	int64_t			 run_start;	/* of the good run, -1: none */
	int64_t			 lock_t;	/* -1: not locked */
	int64_t			 unlocked_ns;	/* bad time after lock */
};

int	report_init(struct sim *sim);
void	report_sample(struct sim *sim);
void	report_summary(struct sim *sim);

/* ---- ptpsim.c ---- */

struct sim {
	struct sim_scenario	 sc;
	struct sim_evq		 q;
	int64_t			 now;		/* simulated ns */
	struct sim_node		 nodes[SIM_MAX_NODES];
	unsigned		 nnodes;
	struct sim_link		 links[SIM_MAX_LINKS];
	unsigned		 nlinks;
	struct sim_msg		*free_msgs;
	struct sim_ev		 sample_ev;
	int64_t			 next_sample;
	int64_t			 first_event_t;	/* first action, or end */
	struct sim_sample_acc	 acc[SIM_MAX_NODES];
	/* the system clocks against true UTC (nodes with has_sys) */
	struct sim_sample_acc	 sys_acc[SIM_MAX_NODES];
	int			 any_sys;
	FILE			*trace;		/* per-sample lines, or NULL */
	int			 quiet;
	uint64_t		 events;
};

/* Simulated ns -> the true time the clocks are compared with. */
static inline int64_t
sim_true_ns(const struct sim *sim)
{
	return SIM_EPOCH_NS + sim->now;
}

/* True UTC: true (TAI) time less the world's TAI - UTC. */
static inline int64_t
sim_true_utc_ns(const struct sim *sim)
{
	return sim_true_ns(sim) - (int64_t)sim->sc.utc_offset_s * SIM_NSEC;
}

#endif /* PTPSEP_SIM_H */
