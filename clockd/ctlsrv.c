/*
 * ctlsrv.c - clockd_ctl_socket: what ptpctl asks ptp-clockd.
 *
 * Status, Ports, Dataset and ForeignMasters are read from struct clockd
 * and answered to any local user (the socket is 0666).  SetRequest changes
 * the clock and is served only to root and to members of admin_group, as
 * the kernel reports the peer at connect() (SO_PEERCRED, SO_PEERGROUPS;
 * lib/ctlsock.c).  NetdInfo belongs to netd's socket: ERROR_NOT_SUPPORTED.
 *
 * The socket, Hello and the limits on clients are lib/ctlsock.c, shared
 * with netd.  Everything here runs inside one event callback and only
 * reads the engine's structures, except the setters of clock.c.
 */
#include "config.h"

#include <arpa/inet.h>
#include <grp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "ctlsock.h"
#include "ctlsrv.h"
#include "log.h"
#include "uneg.h"

typedef Ptpsep__Ctl__CtlRequest CtlRequest;
typedef Ptpsep__Ctl__CtlResponse CtlResponse;

struct ctlsrv {
	struct clockd	*c;
	struct ctlsock	*cs;
	int		 have_admin_gid;
	gid_t		 admin_gid;
};

static int ctlsrv_serve(void *arg, struct ctlsock_client *cl,
    const CtlRequest *req);

static const struct ctlsock_ops ctlsrv_ops = {
	.name = "clockd_ctl_socket",
	.role = PTPSEP__ROLE__ROLE_CLOCKD,
	.serve = ctlsrv_serve,
};

struct ctlsrv *
ctlsrv_start(struct clockd *c)
{
	const char *path = cfg_get_str(c->cfg, NULL, "clockd_ctl_socket");
	const char *group = cfg_get_str(c->cfg, NULL, "admin_group");
	struct ctlsrv *s;
	struct group *gr;

	if ((s = calloc(1, sizeof(*s))) == NULL) {
		log_warn("clockd_ctl_socket");
		return NULL;
	}
	s->c = c;
	if ((gr = getgrnam(group)) != NULL) {
		s->admin_gid = gr->gr_gid;
		s->have_admin_gid = 1;
	} else {
		log_warnx("admin_group %s does not exist: only root may change "
		    "settings with ptpctl set", group);
	}
	/* Its directory is created if missing (lib/sockpath.c). */
	s->cs = ctlsock_listen(c->base, path, 0666, &ctlsrv_ops, s);
	if (s->cs == NULL) {
		log_warnx("no control socket: ptpctl cannot reach this clockd "
		    "(the directory of clockd_ctl_socket %s must be writable "
		    "by clockd_user)", path);
		free(s);
		return NULL;
	}
	/* root and admin_group always find a slot (lib/ctlsock.c). */
	ctlsock_set_admin_group(s->cs, s->have_admin_gid, s->admin_gid);
	log_info("control socket %s", path);
	return s;
}

void
ctlsrv_stop(struct ctlsrv *s)
{
	if (s == NULL)
		return;
	ctlsock_close(s->cs, 1);
	free(s);
}

/* ---- message builders: they borrow from the engine and the caller ---- */

static void
ctlsrv_bytes(ProtobufCBinaryData *b, const uint8_t *id, int present)
{
	b->len = present ? PTP_CLOCK_ID_LEN : 0;
	b->data = present ? (uint8_t *)(uintptr_t)id : NULL;
}

static void
ctlsrv_port_identity(Ptpsep__PortIdentity *m,
    const struct ptp_port_identity *id)
{
	ptpsep__port_identity__init(m);
	ctlsrv_bytes(&m->clock_identity, id->clock_identity, 1);
	m->port_number = id->port_number;
}

static void
ctlsrv_quality(Ptpsep__ClockQuality *m, const struct ptp_clock_quality *q)
{
	ptpsep__clock_quality__init(m);
	m->clock_class = q->clock_class;
	m->clock_accuracy = q->clock_accuracy;
	m->offset_scaled_log_variance = q->offset_scaled_log_variance;
}

/* Status.clock_refusal is enum clock_refusal as it is. */
_Static_assert((int)CR_NONE ==
    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_NONE &&
    (int)CR_STEP_NOT_ALLOWED ==
    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_STEP_NOT_ALLOWED &&
    (int)CR_STEP_TOO_LARGE ==
    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_STEP_TOO_LARGE &&
    (int)CR_RATE_LIMITED ==
    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_RATE_LIMITED &&
    (int)CR_OUT_OF_BOUNDS ==
    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_OUT_OF_BOUNDS &&
    (int)CR_NETD_UNREACHABLE ==
    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_NETD_UNREACHABLE &&
    (int)CR_CLOCK_FAILED ==
    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_CLOCK_FAILED,
    "clock_policy.h and ctl.proto's ClockRefusal differ");

static Ptpsep__Ctl__ServoState
ctlsrv_servo_state(enum servo_state st)
{
	switch (st) {
	case SERVO_JUMP:
		return PTPSEP__CTL__SERVO_STATE__SERVO_STATE_JUMP;
	case SERVO_LOCKED:
	case SERVO_LOCKED_STABLE:
		return PTPSEP__CTL__SERVO_STATE__SERVO_STATE_LOCKED;
	case SERVO_UNLOCKED:
		break;
	}
	return PTPSEP__CTL__SERVO_STATE__SERVO_STATE_UNLOCKED;
}

static void
ctlsrv_port_status(Ptpsep__Ctl__PortStatus *m, const struct cport *p,
    int64_t now)
{
	ptpsep__ctl__port_status__init(m);
	m->port_number = p->identity.port_number;
	m->iface = (char *)(uintptr_t)p->iface;
	m->state = (Ptpsep__Ctl__PortState)p->state;
	m->since_state_change_ms = now > p->state_since ?
	    (uint64_t)(now - p->state_since) / 1000000u : 0;
}

/* The port's G.8275.x BMCA settings, NULL unless that comparison is in use
 * (the --json fields are absent then, doc/design.md). */
static Ptpsep__Ctl__PortG8275 *
ctlsrv_port_g8275(Ptpsep__Ctl__PortG8275 *m, const struct cport *p)
{
	if (p->foreign.dscmp != BMC_DSCMP_G8275)
		return NULL;
	ptpsep__ctl__port_g8275__init(m);
	m->local_priority = p->foreign.local_priority;
	m->max_steps_removed = p->foreign.max_steps_removed;
	return m;
}

static void
ctlsrv_default_ds(Ptpsep__Ctl__DefaultDS *m, Ptpsep__ClockQuality *q,
    const struct clockd *c)
{
	ptpsep__ctl__default_ds__init(m);
	ctlsrv_bytes(&m->clock_identity, c->dds.clock_identity, c->have_ports);
	m->number_ports = c->dds.number_ports;
	ctlsrv_quality(q, &c->dds.quality);
	m->clock_quality = q;
	m->priority1 = c->dds.priority1;
	m->priority2 = c->dds.priority2;
	m->domain_number = c->dds.domain_number;
	m->slave_only = c->dds.slave_only != 0;
	m->two_step_flag = c->dds.two_step != 0;
	m->sdo_id = c->dds.sdo_id;
}

/* Status.system_clock: the second servo (sysclk.h). */
static void
ctlsrv_sysclk(Ptpsep__Ctl__SystemClockStatus *sys, const struct clockd *c)
{
	const struct sysclk *sc = &c->sys;

	switch (sc->dir) {
	case SYSCLK_SYS_FOLLOWS_PTP:
		sys->source = PTPSEP__CTL__SYSTEM_CLOCK_SOURCE__SYSTEM_CLOCK_SOURCE_PHC;
		sys->freq_ppb = isfinite(sc->sys_freq) ? sc->sys_freq : 0.0;
		break;
	case SYSCLK_PTP_FOLLOWS_SYS:
		sys->source =
		    PTPSEP__CTL__SYSTEM_CLOCK_SOURCE__SYSTEM_CLOCK_SOURCE_SYSTEM;
		sys->freq_ppb = isfinite(c->freq_ppb) ? c->freq_ppb : 0.0;
		break;
	default:
		break;
	}
	sys->offset_ns = sc->have_sample ? sc->offset_ns : 0;
	sys->servo_state = ctlsrv_servo_state(sc->state);
	sys->clock_refusal = (Ptpsep__Ctl__ClockRefusal)sc->refusal;
	/* netd_types.h's values are SysoffMethod's */
	sys->method = (Ptpsep__Netd__SysoffMethod)sc->method;
	sys->delay_ns = sc->delay_ns;
	sys->utc_offset_s = sc->utc_offset_s;
	if (!env_netd_ready(&c->env)) {
		sys->servo_state =
		    PTPSEP__CTL__SERVO_STATE__SERVO_STATE_UNLOCKED;
		sys->clock_refusal =
		    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_NETD_UNREACHABLE;
	}
}

/* ---- Status: a port's unicast negotiation (port_uneg.c) ---- */

/* UnicastClient.masters shown a port, and in all (a Status must fit in
 * IPC_MAX_MSG: ~70 octets a master) */
#define CTLSRV_UNI_MASTERS	16
#define CTLSRV_UNI_BUDGET	64
#define CTLSRV_ADDR_LEN		48

struct ctlsrv_uni {
	Ptpsep__Ctl__PortUnicast pu;
	Ptpsep__Ctl__UnicastService srv;
	Ptpsep__Ctl__UnicastClient cli;
	Ptpsep__Ctl__UnicastPeer peer;
	Ptpsep__Ctl__UnicastGrant peer_grant;
	char			 peer_addr[CTLSRV_ADDR_LEN];
	Ptpsep__Ctl__UnicastMaster m[CTLSRV_UNI_MASTERS];
	Ptpsep__Ctl__UnicastMaster *mp[CTLSRV_UNI_MASTERS];
	Ptpsep__PortIdentity	 mid[CTLSRV_UNI_MASTERS];
	Ptpsep__Ctl__UnicastGrant g[CTLSRV_UNI_MASTERS][UNEG_NKINDS];
	Ptpsep__Ctl__UnicastGrant *gp[CTLSRV_UNI_MASTERS][UNEG_NKINDS];
	char			 addr[CTLSRV_UNI_MASTERS][CTLSRV_ADDR_LEN];
};

static void
ctlsrv_addr(char *buf, size_t len, const struct netd_addr *a)
{
	const uint8_t *b = a->b;

	buf[0] = '\0';
	if (a->family == NETD_AF_IPV4 && a->len == 4)
		(void)inet_ntop(AF_INET, b, buf, (socklen_t)len);
	else if (a->family == NETD_AF_IPV6 && a->len == 16)
		(void)inet_ntop(AF_INET6, b, buf, (socklen_t)len);
	else if (a->family == NETD_AF_MAC && a->len == 6)
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1],
		    b[2], b[3], b[4], b[5]);
}

static void
ctlsrv_grant(Ptpsep__Ctl__UnicastGrant *g, unsigned type, int8_t log_period,
    int64_t expires, int64_t now)
{
	ptpsep__ctl__unicast_grant__init(g);
	g->message_type = type;
	g->log_period = log_period;
	g->expires_in_ms = expires > now ? (uint64_t)(expires - now) /
	    1000000u : 0;
}

static void
ctlsrv_uni_client(struct ctlsrv_uni *u, const struct uneg_cli *c,
    int64_t now, unsigned *budget)
{
	unsigned i, k, n;

	ptpsep__ctl__unicast_client__init(&u->cli);
	u->cli.masters_total = c->n;
	u->cli.refusals = c->refusals;
	u->cli.rogue = c->rogue;
	for (i = 0; i < c->n && i < CTLSRV_UNI_MASTERS && *budget > 0; i++) {
		const struct uneg_master *m = &c->m[i];

		(*budget)--;
		ptpsep__ctl__unicast_master__init(&u->m[i]);
		ctlsrv_addr(u->addr[i], sizeof(u->addr[i]), &m->addr);
		u->m[i].address = u->addr[i];
		/* enum uneg_cstate + 1 is UnicastMasterState */
		u->m[i].state = (Ptpsep__Ctl__UnicastMasterState)(m->state + 1);
		if (m->have_pid) {
			ctlsrv_port_identity(&u->mid[i], &m->pid);
			u->m[i].port_identity = &u->mid[i];
		}
		for (k = n = 0; k < UNEG_NKINDS; k++) {
			if (!(m->granted & 1u << k) || m->expires[k] <= now)
				continue;
			ctlsrv_grant(&u->g[i][n], uneg_msg_type(k),
			    m->log_period[k], m->expires[k], now);
			u->gp[i][n] = &u->g[i][n];
			n++;
		}
		u->m[i].n_grants = n;
		u->m[i].grants = u->gp[i];
		u->mp[i] = &u->m[i];
	}
	u->cli.n_masters = i;
	u->cli.masters = u->mp;
}

/* NULL when the port has no unicast negotiation. */
static Ptpsep__Ctl__PortUnicast *
ctlsrv_uni(struct ctlsrv_uni *u, const struct cport *p, int64_t now,
    unsigned *budget)
{
	const struct uneg_srv *s = port_uneg_srv(p);
	const struct uneg_cli *c = port_uneg_cli(p);
	const struct uneg_peer *pe = port_uneg_peer(p);

	if (s == NULL && c == NULL)
		return NULL;
	ptpsep__ctl__port_unicast__init(&u->pu);
	if (s != NULL) {
		ptpsep__ctl__unicast_service__init(&u->srv);
		u->srv.clients = s->nclients;
		u->srv.max_clients = s->lim.max_clients;
		u->srv.grants = s->st.granted;
		u->srv.refused = s->st.refused;
		u->srv.refused_table_full = s->st.refused_full;
		u->srv.refused_period = s->st.refused_period;
		u->srv.refused_duration = s->st.refused_duration;
		u->srv.cancelled = s->st.cancelled;
		u->srv.unknown_cancels = s->st.unknown_cancels;
		u->srv.expired = s->st.expired;
		u->pu.server = &u->srv;
	}
	if (c != NULL) {
		ctlsrv_uni_client(u, c, now, budget);
		if (pe != NULL) {
			ptpsep__ctl__unicast_peer__init(&u->peer);
			ctlsrv_addr(u->peer_addr, sizeof(u->peer_addr),
			    &pe->addr);
			u->peer.address = u->peer_addr;
			u->peer.grants = pe->grants;
			u->peer.refusals = pe->refusals;
			u->peer.cancels = pe->cancels;
			if (uneg_peer_granted(pe, now)) {
				ctlsrv_grant(&u->peer_grant, PTP_MT_PDELAY_RESP,
				    pe->log_period, pe->expires, now);
				u->peer.grant = &u->peer_grant;
			}
			u->cli.peer = &u->peer;
		}
		u->pu.client = &u->cli;
	}
	return &u->pu;
}

static int
ctlsrv_status(struct ctlsrv *s, struct ctlsock_client *cl)
{
	const struct clockd *c = s->c;
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Ctl__Status st = PTPSEP__CTL__STATUS__INIT;
	Ptpsep__Ctl__SystemClockStatus sys =
	    PTPSEP__CTL__SYSTEM_CLOCK_STATUS__INIT;
	Ptpsep__Ctl__PortStatus ps[CLOCKD_MAX_PORTS];
	Ptpsep__Ctl__PortStatus *pp[CLOCKD_MAX_PORTS];
	Ptpsep__Ctl__PortG8275 pg[CLOCKD_MAX_PORTS];
	Ptpsep__Ctl__ClockG8275 cg = PTPSEP__CTL__CLOCK_G8275__INIT;
	struct ctlsrv_uni *uni;
	int64_t now = clock_now(c);
	unsigned i, budget = CTLSRV_UNI_BUDGET;
	int rc;

	ctlsrv_bytes(&st.clock_identity, c->dds.clock_identity, c->have_ports);
	ctlsrv_bytes(&st.gm_identity, c->pds.gm_identity, c->have_ports);
	st.offset_ns = c->cds.offset_from_master;
	st.mean_path_delay_ns = c->cds.mean_path_delay;
	st.freq_ppb = isfinite(c->freq_ppb) ? c->freq_ppb : 0.0;
	st.servo_state = ctlsrv_servo_state(c->servo_state);
	st.gm_clock_class = c->pds.gm_quality.clock_class;
	st.steps_removed = c->cds.steps_removed;
	/* Holdover (clockd/holdover.h) and the class announced as
	 * grandmaster now, whether or not this clock is one. */
	st.holdover = hold_active(&c->hold) != 0;
	st.holdover_ms = (uint64_t)(hold_duration(&c->hold, now) / 1000000);
	st.clock_class = clock_class_now(c);
	/* clock_policy.h's values are ClockRefusal's. */
	st.clock_refusal = (Ptpsep__Ctl__ClockRefusal)c->refusal;
	if (!env_netd_ready(&c->env)) {
		/* Nothing is disciplined without netd: never "locked". */
		st.servo_state = PTPSEP__CTL__SERVO_STATE__SERVO_STATE_UNLOCKED;
		st.clock_refusal =
		    PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_NETD_UNREACHABLE;
	}
	if (c->sys.have) {
		ctlsrv_sysclk(&sys, c);
		st.system_clock = &sys;
	}
	if (c->dscmp == BMC_DSCMP_G8275) {
		cg.local_priority = c->dds.local_priority;
		st.g8275 = &cg;
	}
	/* ~9 KiB a port: not on the stack (NULL: shown without it) */
	uni = calloc(CLOCKD_MAX_PORTS, sizeof(*uni));
	for (i = 0; i < c->nports && i < IPC_MAX_PORTS; i++) {
		ctlsrv_port_status(&ps[i], &c->ports[i], now);
		ps[i].g8275 = ctlsrv_port_g8275(&pg[i], &c->ports[i]);
		if (uni != NULL)
			ps[i].unicast = ctlsrv_uni(&uni[i], &c->ports[i], now,
			    &budget);
		pp[i] = &ps[i];
	}
	st.n_ports = i;
	st.ports = pp;
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_STATUS;
	r.status = &st;
	rc = ctlsock_reply(cl, &r);
	free(uni);
	return rc;
}

static int
ctlsrv_ports(struct ctlsrv *s, struct ctlsock_client *cl)
{
	const struct clockd *c = s->c;
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Ctl__Ports ports = PTPSEP__CTL__PORTS__INIT;
	Ptpsep__Ctl__PortInfo pi[CLOCKD_MAX_PORTS];
	Ptpsep__Ctl__PortInfo *pp[CLOCKD_MAX_PORTS];
	Ptpsep__Ctl__PortStatus ps[CLOCKD_MAX_PORTS];
	Ptpsep__PortIdentity id[CLOCKD_MAX_PORTS];
	int sw = cfg_get_int(c->cfg, NULL, "time_stamping") == CFG_TS_SOFTWARE;
	int64_t now = clock_now(c);
	unsigned i;

	for (i = 0; i < c->nports && i < IPC_MAX_PORTS; i++) {
		const struct cport *p = &c->ports[i];

		ptpsep__ctl__port_info__init(&pi[i]);
		ctlsrv_port_status(&ps[i], p, now);
		ctlsrv_port_identity(&id[i], &p->identity);
		pi[i].status = &ps[i];
		pi[i].port_identity = &id[i];
		pi[i].transport = (Ptpsep__Transport)p->transport;
		pi[i].ts_mode = sw ? PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE :
		    PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE;
		pi[i].delay_mechanism =
		    (Ptpsep__Ctl__DelayMechanism)p->delay_mechanism;
		pi[i].link_up = p->link_up != 0;
		pi[i].enabled = p->enabled != 0;
		pp[i] = &pi[i];
	}
	ports.n_ports = i;
	ports.ports = pp;
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_PORTS;
	r.ports = &ports;
	return ctlsock_reply(cl, &r);
}

static int
ctlsrv_dataset(struct ctlsrv *s, struct ctlsock_client *cl,
    const Ptpsep__Ctl__DatasetRequest *req)
{
	const struct clockd *c = s->c;
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Ctl__Dataset ds = PTPSEP__CTL__DATASET__INIT;
	Ptpsep__Ctl__DefaultDS dds;
	Ptpsep__Ctl__CurrentDS cds = PTPSEP__CTL__CURRENT_DS__INIT;
	Ptpsep__Ctl__ParentDS pds = PTPSEP__CTL__PARENT_DS__INIT;
	Ptpsep__Ctl__TimePropertiesDS tds =
	    PTPSEP__CTL__TIME_PROPERTIES_DS__INIT;
	Ptpsep__Ctl__PortDS pds_port = PTPSEP__CTL__PORT_DS__INIT;
	Ptpsep__ClockQuality q;
	Ptpsep__PortIdentity id;
	const struct cport *p;

	switch (req->kind) {
	case PTPSEP__CTL__DATASET_KIND__DATASET_DEFAULT:
		ctlsrv_default_ds(&dds, &q, c);
		ds.ds_case = PTPSEP__CTL__DATASET__DS_DEFAULT_DS;
		ds.default_ds = &dds;
		break;
	case PTPSEP__CTL__DATASET_KIND__DATASET_CURRENT:
		cds.steps_removed = c->cds.steps_removed;
		cds.offset_from_master_ns = c->cds.offset_from_master;
		cds.mean_delay_ns = c->cds.mean_path_delay;
		ds.ds_case = PTPSEP__CTL__DATASET__DS_CURRENT_DS;
		ds.current_ds = &cds;
		break;
	case PTPSEP__CTL__DATASET_KIND__DATASET_PARENT:
		if (c->have_ports) {
			ctlsrv_port_identity(&id,
			    &c->pds.parent_port_identity);
			pds.parent_port_identity = &id;
		}
		ctlsrv_bytes(&pds.grandmaster_identity, c->pds.gm_identity,
		    c->have_ports);
		ctlsrv_quality(&q, &c->pds.gm_quality);
		pds.grandmaster_clock_quality = &q;
		pds.grandmaster_priority1 = c->pds.gm_priority1;
		pds.grandmaster_priority2 = c->pds.gm_priority2;
		/* Parent statistics are not computed (parentStats FALSE). */
		pds.observed_parent_offset_scaled_log_variance = 0xffff;
		pds.observed_parent_clock_phase_change_rate = 0x7fffffff;
		ds.ds_case = PTPSEP__CTL__DATASET__DS_PARENT_DS;
		ds.parent_ds = &pds;
		break;
	case PTPSEP__CTL__DATASET_KIND__DATASET_TIME_PROPERTIES:
		tds.current_utc_offset = c->tds.current_utc_offset;
		tds.current_utc_offset_valid =
		    (c->tds.flags & PTP_FLAG_UTC_OFFSET_VALID) != 0;
		tds.leap59 = (c->tds.flags & PTP_FLAG_LEAP59) != 0;
		tds.leap61 = (c->tds.flags & PTP_FLAG_LEAP61) != 0;
		tds.time_traceable =
		    (c->tds.flags & PTP_FLAG_TIME_TRACEABLE) != 0;
		tds.frequency_traceable =
		    (c->tds.flags & PTP_FLAG_FREQ_TRACEABLE) != 0;
		tds.ptp_timescale = (c->tds.flags & PTP_FLAG_PTP_TIMESCALE) != 0;
		tds.time_source = c->tds.time_source;
		ds.ds_case = PTPSEP__CTL__DATASET__DS_TIME_PROPERTIES_DS;
		ds.time_properties_ds = &tds;
		break;
	case PTPSEP__CTL__DATASET_KIND__DATASET_PORT:
		if (req->port_number < 1 || req->port_number > c->nports)
			return ctlsock_error(cl,
			    PTPSEP__ERROR_CODE__ERROR_BAD_ARGUMENT,
			    "no such port");
		p = &c->ports[req->port_number - 1];
		ctlsrv_port_identity(&id, &p->identity);
		pds_port.port_identity = &id;
		pds_port.port_state = (Ptpsep__Ctl__PortState)p->state;
		pds_port.log_min_delay_req_interval =
		    p->log_min_delay_req_interval;
		pds_port.mean_link_delay_ns = p->delay_mechanism == DM_P2P &&
		    p->have_delay ? delay_scaled_to_ns(p->path_delay) : 0;
		pds_port.log_announce_interval = p->log_announce_interval;
		pds_port.announce_receipt_timeout =
		    p->announce_receipt_timeout;
		pds_port.log_sync_interval = p->log_sync_interval;
		pds_port.delay_mechanism =
		    (Ptpsep__Ctl__DelayMechanism)p->delay_mechanism;
		pds_port.log_min_pdelay_req_interval =
		    p->log_min_pdelay_req_interval;
		pds_port.version_number = PTP_VERSION;
		pds_port.minor_version_number = PTP_MINOR_VERSION;
		pds_port.delay_asymmetry_ns = delay_scaled_to_ns(p->asymmetry);
		ds.ds_case = PTPSEP__CTL__DATASET__DS_PORT_DS;
		ds.port_ds = &pds_port;
		break;
	default:
		return ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_BAD_ARGUMENT,
		    "no such dataset");
	}
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_DATASET;
	r.dataset = &ds;
	return ctlsock_reply(cl, &r);
}

struct ctlsrv_fm_buf {
	Ptpsep__Ctl__ForeignMaster	m;
	Ptpsep__PortIdentity		id;
	Ptpsep__ClockQuality		q;
};

static int
ctlsrv_foreign(struct ctlsrv *s, struct ctlsock_client *cl,
    const Ptpsep__Ctl__ForeignRequest *req)
{
	const struct clockd *c = s->c;
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Ctl__ForeignMasters fms = PTPSEP__CTL__FOREIGN_MASTERS__INIT;
	Ptpsep__Ctl__ForeignMaster *pp[IPC_MAX_FOREIGN];
	struct ctlsrv_fm_buf *b;
	struct fm_info fi;
	int64_t now = clock_now(c);
	size_t n = 0, j;
	unsigned i;
	int rc;

	if (req->port_number > c->nports)
		return ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_BAD_ARGUMENT,
		    "no such port");
	if ((b = calloc(IPC_MAX_FOREIGN, sizeof(*b))) == NULL)
		return ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_INTERNAL,
		    "out of memory");
	for (i = 0; i < c->nports; i++) {
		const struct cport *p = &c->ports[i];

		if (req->port_number != 0 && req->port_number != i + 1)
			continue;
		for (j = 0; j < fm_count(&p->foreign) && n < IPC_MAX_FOREIGN;
		    j++) {
			Ptpsep__Ctl__ForeignMaster *m = &b[n].m;
			const struct fm_entry *e;

			if (fm_get(&p->foreign, j, now, &fi) != 0)
				continue;
			e = fi.entry;
			ptpsep__ctl__foreign_master__init(m);
			m->port_number = p->identity.port_number;
			ctlsrv_port_identity(&b[n].id,
			    &e->hdr.source_port_identity);
			m->port_identity = &b[n].id;
			m->announce_messages = fi.count;
			m->qualified = fi.qualified != 0;
			m->last_announce_ms = fi.age_ns > 0 ?
			    (uint64_t)fi.age_ns / 1000000u : 0;
			ctlsrv_bytes(&m->gm_identity,
			    e->announce.grandmaster_identity, 1);
			m->gm_priority1 = e->announce.grandmaster_priority1;
			ctlsrv_quality(&b[n].q,
			    &e->announce.grandmaster_clock_quality);
			m->gm_clock_quality = &b[n].q;
			m->gm_priority2 = e->announce.grandmaster_priority2;
			m->steps_removed = e->announce.steps_removed;
			m->time_source = e->announce.time_source;
			m->current_utc_offset = e->announce.current_utc_offset;
			pp[n] = m;
			n++;
		}
	}
	fms.n_masters = n;
	fms.masters = pp;
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_FOREIGN;
	r.foreign = &fms;
	rc = ctlsock_reply(cl, &r);
	free(b);
	return rc;
}

/*
 * SetRequest: the caller's right first, then the value; one setting per
 * request (ctl.proto), applied through clock.c's setters, answered with
 * the defaultDS after it.
 */
static int
ctlsrv_set(struct ctlsrv *s, struct ctlsock_client *cl,
    const Ptpsep__Ctl__SetRequest *req)
{
	struct clockd *c = s->c;
	const struct usock_peer *peer = ctlsock_peer(cl);
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Ctl__SetReply rep = PTPSEP__CTL__SET_REPLY__INIT;
	Ptpsep__Ctl__DefaultDS dds;
	Ptpsep__ClockQuality q;
	const char *what = "?";
	uint32_t v = 0;
	int rc = -1;

	if (!usock_peer_is_admin(peer, s->have_admin_gid, s->admin_gid)) {
		/* Any local user can ask again and again: rate-limited. */
		log_rl(LOG_LVL_INFO, "ptpctl set refused: uid %u (pid %d) is "
		    "not root nor in admin_group", (unsigned)peer->uid,
		    (int)peer->pid);
		return ctlsock_error(cl,
		    PTPSEP__ERROR_CODE__ERROR_PERMISSION_DENIED,
		    "changing settings needs root or admin_group");
	}
	switch (req->what_case) {
	case PTPSEP__CTL__SET_REQUEST__WHAT_PRIORITY1:
		what = "priority1";
		v = req->priority1;
		if (v <= 255)
			rc = clock_set_priority1(c, (uint8_t)v);
		break;
	case PTPSEP__CTL__SET_REQUEST__WHAT_PRIORITY2:
		what = "priority2";
		v = req->priority2;
		if (v <= 255)
			rc = clock_set_priority2(c, (uint8_t)v);
		break;
	case PTPSEP__CTL__SET_REQUEST__WHAT_CLOCK_CLASS:
		what = "clockClass";
		v = req->clock_class;
		if (v <= 255)
			rc = clock_set_clock_class(c, (uint8_t)v);
		break;
	case PTPSEP__CTL__SET_REQUEST__WHAT_PORT_ENABLE:
		if (req->port_enable == NULL)
			break;
		what = req->port_enable->enable ? "port enable" :
		    "port disable";
		v = req->port_enable->port_number;
		if (v >= 1 && v <= c->nports)
			rc = clock_set_port_enabled(c, v - 1,
			    req->port_enable->enable);
		break;
	default:
		break;
	}
	if (rc != 0)
		return ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_BAD_ARGUMENT,
		    "value out of range or not allowed for this clock");
	log_info("ptpctl set %s %u by uid %u", what, (unsigned)v,
	    (unsigned)peer->uid);
	ctlsrv_default_ds(&dds, &q, c);
	rep.default_ds = &dds;
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_SET;
	r.set = &rep;
	return ctlsock_reply(cl, &r);
}

static int
ctlsrv_serve(void *arg, struct ctlsock_client *cl, const CtlRequest *req)
{
	struct ctlsrv *s = arg;

	switch (req->body_case) {
	case PTPSEP__CTL__CTL_REQUEST__BODY_STATUS:
		return ctlsrv_status(s, cl);
	case PTPSEP__CTL__CTL_REQUEST__BODY_PORTS:
		return ctlsrv_ports(s, cl);
	case PTPSEP__CTL__CTL_REQUEST__BODY_DATASET:
		return ctlsrv_dataset(s, cl, req->dataset);
	case PTPSEP__CTL__CTL_REQUEST__BODY_FOREIGN:
		return ctlsrv_foreign(s, cl, req->foreign);
	case PTPSEP__CTL__CTL_REQUEST__BODY_SET:
		return ctlsrv_set(s, cl, req->set);
	default:
		break;
	}
	return ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_NOT_SUPPORTED,
	    "ptp-clockd does not serve this; NetdInfo is ptp-netd's");
}
