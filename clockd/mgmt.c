/*
 * mgmt.c - PTP management (IEEE 1588-2019 clause 15): the answers of this
 * clock to GET, SET and COMMAND.  Pure; see mgmt.h for what is served and
 * which error status each refusal gets.  The I/O is pmcsock.c.
 *
 * The layouts of the dataFields are those of 15.5.3; where the standard
 * leaves a choice, linuxptp's (its tlv.h and pmc) is taken, since pmc is
 * the client everyone has: PORT_DATA_SET's versionNumber is 2 alone (the
 * 1588-2008 field), GET requests may carry a zero-filled dataField of the
 * response's length (pmc does unless -z), and a port-level id for a port
 * that does not exist is WRONG_VALUE (IEEE 1588 interpretation 21, as
 * ptp4l).  TIME_STATUS_NP and PORT_DATA_SET_NP are linuxptp's own ids
 * (0xC000, 0xC002: the implementation-specific range of 15.5.2.3), laid
 * out as its struct time_status_np and struct port_ds_np.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "delay.h"
#include "mgmt.h"
#include "ptp_be.h"
#include "ptp_msg.h"
#include "ptp_time.h"
#include "ptp_tlv.h"

/* What the standard allows for an id (15.5.2.3) and what is served here. */
#define F_GET		0x01	/* GET defined */
#define F_SET		0x02	/* SET defined */
#define F_CMD		0x04	/* COMMAND defined */
#define F_PORT		0x08	/* port-level: answered per port */
#define F_SERVE_GET	0x10
#define F_SERVE_SET	0x20
#define F_SERVE_CMD	0x40

struct mgmt_id {
	uint16_t	 id;
	uint8_t		 flags;
	uint8_t		 len;		/* fixed dataField length; 0: variable */
	const char	*name;
};

/* Sorted by id.  Unknown ids are NO_SUCH_ID. */
static const struct mgmt_id mgmt_ids[] = {
	{ 0x0000, F_GET | F_SET | F_CMD | F_SERVE_GET | F_SERVE_SET |
	    F_SERVE_CMD, 0, "NULL_PTP_MANAGEMENT" },
	{ 0x0001, F_GET | F_PORT | F_SERVE_GET, 0, "CLOCK_DESCRIPTION" },
	{ 0x0002, F_GET | F_SET | F_SERVE_GET, 0, "USER_DESCRIPTION" },
	{ 0x0003, F_CMD, 0, "SAVE_IN_NON_VOLATILE_STORAGE" },
	{ 0x0004, F_CMD, 0, "RESET_NON_VOLATILE_STORAGE" },
	{ 0x0005, F_CMD, 0, "INITIALIZE" },
	{ 0x0006, F_GET, 0, "FAULT_LOG" },
	{ 0x0007, F_CMD, 0, "FAULT_LOG_RESET" },
	{ 0x2000, F_GET | F_SERVE_GET, MGMT_LEN_DEFAULT_DS,
	    "DEFAULT_DATA_SET" },
	{ 0x2001, F_GET | F_SERVE_GET, MGMT_LEN_CURRENT_DS,
	    "CURRENT_DATA_SET" },
	{ 0x2002, F_GET | F_SERVE_GET, MGMT_LEN_PARENT_DS,
	    "PARENT_DATA_SET" },
	{ 0x2003, F_GET | F_SERVE_GET, MGMT_LEN_TIME_PROPERTIES_DS,
	    "TIME_PROPERTIES_DATA_SET" },
	{ 0x2004, F_GET | F_PORT | F_SERVE_GET, MGMT_LEN_PORT_DS,
	    "PORT_DATA_SET" },
	{ 0x2005, F_GET | F_SET | F_SERVE_GET | F_SERVE_SET, MGMT_LEN_PRIORITY,
	    "PRIORITY1" },
	{ 0x2006, F_GET | F_SET | F_SERVE_GET | F_SERVE_SET, MGMT_LEN_PRIORITY,
	    "PRIORITY2" },
	{ 0x2007, F_GET | F_SET | F_SERVE_GET, MGMT_LEN_DOMAIN, "DOMAIN" },
	{ 0x2008, F_GET | F_SET, 2, "SLAVE_ONLY" },
	{ 0x2009, F_GET | F_SET | F_PORT, 2, "LOG_ANNOUNCE_INTERVAL" },
	{ 0x200A, F_GET | F_SET | F_PORT, 2, "ANNOUNCE_RECEIPT_TIMEOUT" },
	{ 0x200B, F_GET | F_SET | F_PORT, 2, "LOG_SYNC_INTERVAL" },
	{ 0x200C, F_GET | F_SET | F_PORT, 2, "VERSION_NUMBER" },
	{ 0x200D, F_CMD | F_PORT, 0, "ENABLE_PORT" },
	{ 0x200E, F_CMD | F_PORT, 0, "DISABLE_PORT" },
	{ 0x200F, F_GET | F_SET, 10, "TIME" },
	{ 0x2010, F_GET | F_SET, 2, "CLOCK_ACCURACY" },
	{ 0x2011, F_GET | F_SET, 4, "UTC_PROPERTIES" },
	{ 0x2012, F_GET | F_SET, 2, "TRACEABILITY_PROPERTIES" },
	{ 0x2013, F_GET | F_SET, 2, "TIMESCALE_PROPERTIES" },
	{ 0x2014, F_GET | F_SET | F_PORT, 2, "UNICAST_NEGOTIATION_ENABLE" },
	{ 0x2015, F_GET, 0, "PATH_TRACE_LIST" },
	{ 0x2016, F_GET | F_SET, 2, "PATH_TRACE_ENABLE" },
	{ 0x2017, F_GET | F_SET, 0, "GRANDMASTER_CLUSTER_TABLE" },
	{ 0x2018, F_GET | F_SET | F_PORT, 0, "UNICAST_MASTER_TABLE" },
	{ 0x2019, F_GET | F_PORT, 2, "UNICAST_MASTER_MAX_TABLE_SIZE" },
	{ 0x201A, F_GET | F_SET, 0, "ACCEPTABLE_MASTER_TABLE" },
	{ 0x201B, F_GET | F_SET | F_PORT, 2,
	    "ACCEPTABLE_MASTER_TABLE_ENABLED" },
	{ 0x201C, F_GET, 2, "ACCEPTABLE_MASTER_MAX_TABLE_SIZE" },
	{ 0x201D, F_GET | F_SET | F_PORT, 0, "ALTERNATE_MASTER" },
	{ 0x201E, F_GET | F_SET, 2, "ALTERNATE_TIME_OFFSET_ENABLE" },
	{ 0x201F, F_GET | F_SET, 0, "ALTERNATE_TIME_OFFSET_NAME" },
	{ 0x2020, F_GET, 2, "ALTERNATE_TIME_OFFSET_MAX_KEY" },
	{ 0x2021, F_GET | F_SET, 0, "ALTERNATE_TIME_OFFSET_PROPERTIES" },
	{ 0x3000, F_GET | F_SET, 2, "EXTERNAL_PORT_CONFIGURATION_ENABLED" },
	{ 0x3001, F_GET | F_SET | F_PORT, 2, "MASTER_ONLY" },
	{ 0x3002, F_GET | F_SET, 2, "HOLDOVER_UPGRADE_ENABLE" },
	{ 0x3003, F_GET | F_SET | F_PORT, 0, "EXT_PORT_CONFIG_PORT_DATA_SET" },
	{ 0x4000, F_GET, 0, "TRANSPARENT_CLOCK_DEFAULT_DATA_SET" },
	{ 0x4001, F_GET | F_PORT, 0, "TRANSPARENT_CLOCK_PORT_DATA_SET" },
	{ 0x4002, F_GET | F_SET, 2, "PRIMARY_DOMAIN" },
	{ 0x6000, F_GET | F_SET | F_PORT, 2, "DELAY_MECHANISM" },
	{ 0x6001, F_GET | F_SET | F_PORT, 2, "LOG_MIN_PDELAY_REQ_INTERVAL" },
	/* linuxptp's (tlv.h) */
	{ 0xC000, F_GET | F_SERVE_GET, MGMT_LEN_TIME_STATUS_NP,
	    "TIME_STATUS_NP" },
	{ 0xC001, F_GET | F_SET, 0, "GRANDMASTER_SETTINGS_NP" },
	{ 0xC002, F_GET | F_SET | F_PORT | F_SERVE_GET, MGMT_LEN_PORT_DS_NP,
	    "PORT_DATA_SET_NP" },
	{ 0xC003, F_GET | F_SET, 0, "SUBSCRIBE_EVENTS_NP" },
	{ 0xC004, F_GET | F_PORT, 0, "PORT_PROPERTIES_NP" },
	{ 0xC005, F_GET | F_PORT, 0, "PORT_STATS_NP" },
	{ 0xC006, F_GET | F_SET, 0, "SYNCHRONIZATION_UNCERTAIN_NP" },
	{ 0xC007, F_GET | F_PORT, 0, "PORT_SERVICE_STATS_NP" },
	{ 0xC008, F_GET | F_PORT, 0, "UNICAST_MASTER_TABLE_NP" },
	{ 0xC009, F_GET | F_PORT, 0, "PORT_HWCLOCK_NP" },
};

#define NIDS	(sizeof(mgmt_ids) / sizeof(mgmt_ids[0]))

static const struct mgmt_id *
mgmt_lookup(uint16_t id)
{
	size_t lo = 0, hi = NIDS;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (mgmt_ids[mid].id == id)
			return &mgmt_ids[mid];
		if (mgmt_ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *
mgmt_id_name(uint16_t id)
{
	const struct mgmt_id *e = mgmt_lookup(id);

	return e != NULL ? e->name : "UNKNOWN";
}

int
mgmt_port_forwards(int s)
{
	/* The states in which ptp4l forwards (its forwarding()). */
	switch (s) {
	case PS_PRE_MASTER:
	case PS_MASTER:
	case PS_UNCALIBRATED:
	case PS_SLAVE:
		return 1;
	default:
		return 0;
	}
}

/* ---- building responses ---- */

/* A request being answered, and where the answers go. */
struct mgmt_req {
	const struct clockd	*c;
	const struct mgmt_src	*src;
	struct ptp_msg		 m;
	uint16_t		 id;
	const uint8_t		*data;
	uint16_t		 data_len;
	mgmt_emit_fn		 emit;
	void			*arg;
	int			 sent;
	int			 stop;
};

/* The identity clock-level answers carry: the ingress port, or port 0. */
static struct ptp_port_identity
mgmt_clock_pid(const struct mgmt_req *r)
{
	struct ptp_port_identity pid;

	if (r->src->ingress >= 0 && (unsigned)r->src->ingress < r->c->nports)
		return r->c->ports[r->src->ingress].identity;
	memcpy(pid.clock_identity, r->c->dds.clock_identity, PTP_CLOCK_ID_LEN);
	pid.port_number = 0;
	return pid;
}

/*
 * Header and body of a reply (15.4.1; as ptp4l's port_management_reply):
 * targetPortIdentity is the requester, startingBoundaryHops and
 * boundaryHops the hops the request made, the action RESPONSE to GET and
 * SET and ACKNOWLEDGE to COMMAND.  Packed with a placeholder TLV that is
 * then cut off, so that the TLV helpers of ptp_tlv.h append the real one.
 */
static int
mgmt_reply_start(const struct mgmt_req *r, const struct ptp_port_identity *pid,
    uint8_t *buf, size_t size)
{
	static const uint8_t placeholder[6] = { 0x00, 0x01, 0x00, 0x02 };
	const struct ptp_management *req = &r->m.body.management;
	struct ptp_msg m;
	int len;

	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_MANAGEMENT;
	m.hdr.version = PTP_VERSION;
	m.hdr.minor_version = PTP_MINOR_VERSION;
	m.hdr.domain_number = r->c->dds.domain_number;
	m.hdr.minor_sdo_id = r->c->dds.sdo_id;
	m.hdr.source_port_identity = *pid;
	m.hdr.sequence_id = r->m.hdr.sequence_id;
	m.hdr.control_field = 4;		/* 13.3.2.13: Management */
	m.hdr.log_message_interval = 0x7F;	/* 13.3.2.14 */
	m.body.management.target_port_identity =
	    r->m.hdr.source_port_identity;
	m.body.management.starting_boundary_hops =
	    m.body.management.boundary_hops =
	    req->starting_boundary_hops >= req->boundary_hops ?
	    (uint8_t)(req->starting_boundary_hops - req->boundary_hops) : 0;
	m.body.management.action = req->action == PTP_MA_COMMAND ?
	    PTP_MA_ACKNOWLEDGE : PTP_MA_RESPONSE;
	m.suffix = placeholder;
	m.suffix_len = sizeof(placeholder);
	if ((len = ptp_msg_pack(&m, buf, size)) < 0)
		return len;
	ptp_put_be16(buf + 2, PTP_MANAGEMENT_LEN);
	return 0;
}

static void
mgmt_emit(struct mgmt_req *r, const uint8_t *buf, int len)
{
	if (len < 0 || r->stop)
		return;
	r->sent++;
	if (r->emit != NULL && r->emit(r->arg, buf, (size_t)len) != 0)
		r->stop = 1;
}

static void
mgmt_reply_data(struct mgmt_req *r, const struct ptp_port_identity *pid,
    const uint8_t *data, size_t len)
{
	uint8_t buf[MGMT_MSG_MAX];

	if (mgmt_reply_start(r, pid, buf, sizeof(buf)) < 0)
		return;
	mgmt_emit(r, buf, ptp_tlv_append_mgmt(buf, sizeof(buf), r->id, data,
	    len));
}

static void
mgmt_reply_error(struct mgmt_req *r, uint16_t error_id)
{
	struct ptp_port_identity pid = mgmt_clock_pid(r);
	uint8_t buf[MGMT_MSG_MAX];

	if (mgmt_reply_start(r, &pid, buf, sizeof(buf)) < 0)
		return;
	mgmt_emit(r, buf, ptp_tlv_append_mgmt_error(buf, sizeof(buf),
	    error_id, r->id, NULL, 0));
}

/* ---- dataFields (15.5.3) ---- */

/* TimeInterval (5.3.2): ns * 2^16, saturated. */
static void
mgmt_put_interval(uint8_t *p, int64_t ns)
{
	ptp_put_be64(p, (uint64_t)delay_ns_to_scaled(ns));
}

/* PTPText (5.3.9), at most max octets of s; returns octets written. */
static size_t
mgmt_put_text(uint8_t *p, const char *s, size_t max)
{
	size_t n = s != NULL ? strlen(s) : 0;

	if (n > max)
		n = max;
	p[0] = (uint8_t)n;
	if (n != 0)
		memcpy(p + 1, s, n);
	return n + 1;
}

static const char *
mgmt_cfg_str(const struct clockd *c, const char *key, const char *def)
{
	return c->cfg != NULL ? cfg_get_str(c->cfg, NULL, key) : def;
}

static size_t
mgmt_default_ds(const struct clockd *c, uint8_t *d)
{
	/* flags: TSC (bit 0), SO (bit 1) */
	d[0] = (uint8_t)((c->dds.two_step ? 0x01 : 0) |
	    (c->dds.slave_only ? 0x02 : 0));
	ptp_put_be16(d + 2, c->dds.number_ports);
	d[4] = c->dds.priority1;
	ptp_clock_quality_pack(&c->dds.quality, d + 5);
	d[9] = c->dds.priority2;
	memcpy(d + 10, c->dds.clock_identity, PTP_CLOCK_ID_LEN);
	d[18] = c->dds.domain_number;
	return MGMT_LEN_DEFAULT_DS;
}

static size_t
mgmt_current_ds(const struct clockd *c, uint8_t *d)
{
	ptp_put_be16(d, c->cds.steps_removed);
	mgmt_put_interval(d + 2, c->cds.offset_from_master);
	mgmt_put_interval(d + 10, c->cds.mean_path_delay);
	return MGMT_LEN_CURRENT_DS;
}

static size_t
mgmt_parent_ds(const struct clockd *c, uint8_t *d)
{
	ptp_port_identity_pack(&c->pds.parent_port_identity, d);
	d[10] = 0;			/* parentStats: not computed */
	/* observedParentOffsetScaledLogVariance and
	 * observedParentClockPhaseChangeRate: the "not computed" values of
	 * 8.2.3.4 and 8.2.3.5, as ptpctl shows them */
	ptp_put_be16(d + 12, 0xFFFF);
	ptp_put_be32(d + 14, 0x7FFFFFFF);
	d[18] = c->pds.gm_priority1;
	ptp_clock_quality_pack(&c->pds.gm_quality, d + 19);
	d[23] = c->pds.gm_priority2;
	memcpy(d + 24, c->pds.gm_identity, PTP_CLOCK_ID_LEN);
	return MGMT_LEN_PARENT_DS;
}

static size_t
mgmt_time_properties_ds(const struct clockd *c, uint8_t *d)
{
	ptp_put_be16(d, (uint16_t)c->tds.current_utc_offset);
	/* LI_61, LI_59, UTCV, PTP, TTRA, FTRA: bits 0-5, the same bits as
	 * in the low octet of flagField (13.3.2.8) */
	d[2] = (uint8_t)(c->tds.flags & 0x3F);
	d[3] = c->tds.time_source;
	return MGMT_LEN_TIME_PROPERTIES_DS;
}

static size_t
mgmt_port_ds(const struct cport *p, uint8_t *d)
{
	ptp_port_identity_pack(&p->identity, d);
	d[10] = (uint8_t)p->state;		/* fsm.h: Table 20's values */
	d[11] = (uint8_t)p->log_min_delay_req_interval;
	/* peerMeanPathDelay: P2P ports only, else 0 (8.2.15.3.3) */
	ptp_put_be64(d + 12, p->delay_mechanism == DM_P2P && p->have_delay ?
	    (uint64_t)p->path_delay : 0);
	d[20] = (uint8_t)p->log_announce_interval;
	d[21] = p->announce_receipt_timeout;
	d[22] = (uint8_t)p->log_sync_interval;
	d[23] = (uint8_t)p->delay_mechanism;
	d[24] = (uint8_t)p->log_min_pdelay_req_interval;
	d[25] = PTP_VERSION;		/* as ptp4l 3.1: the major version */
	return MGMT_LEN_PORT_DS;
}

static size_t
mgmt_port_ds_np(const struct clockd *c, const struct cport *p, uint8_t *d)
{
	int thresh = c->cfg != NULL ? cfg_get_int(c->cfg,
	    cfg_port_index(c->cfg, p->iface) >= 0 ? p->iface : NULL,
	    "neighborPropDelayThresh") : 20000000;
	int active = p->state != PS_FAULTY && p->state != PS_DISABLED &&
	    p->state != PS_INITIALIZING;

	ptp_put_be32(d, (uint32_t)thresh);
	/* asCapable: a port that runs and, with P2P, whose neighbour's delay
	 * is within [min_neighbor_prop_delay, neighborPropDelayThresh] (nbr.h);
	 * 802.1AS's other conditions do not apply to the default profiles */
	ptp_put_be32(d + 4, active && (p->delay_mechanism != DM_P2P ||
	    nbr_as_capable(&p->nbr)) ? 1 : 0);
	return MGMT_LEN_PORT_DS_NP;
}

/* The slave port's last Sync ingress time and master/local rate. */
static size_t
mgmt_time_status_np(const struct clockd *c, uint8_t *d)
{
	const struct cport *sp = NULL;
	int64_t ingress = 0;
	double rr = 1.0, cso;

	if (c->slave_port >= 0 && (unsigned)c->slave_port < c->nports)
		sp = &c->ports[c->slave_port];
	if (sp != NULL && sp->last_sync_valid &&
	    ptp_time_to_ns(&sp->last_sync.t2, &ingress) != 0)
		ingress = 0;
	if (sp != NULL && sp->have_rr && sp->rate_ratio > 0.5 &&
	    sp->rate_ratio < 1.5)
		rr = sp->rate_ratio;
	ptp_put_be64(d, (uint64_t)c->cds.offset_from_master);
	ptp_put_be64(d + 8, (uint64_t)ingress);
	/* cumulativeScaledRateOffset: (rateRatio - 1) * 2^41, an Integer32:
	 * beyond +-976 ppm it does not fit, and a double converted to an
	 * int32 it does not fit is undefined behaviour, so it saturates.
	 * The ratio comes from the master's Syncs (up to 1 % off). */
	cso = (rr - 1.0) * 2199023255552.0;
	if (cso > (double)INT32_MAX)
		cso = INT32_MAX;
	else if (cso < (double)INT32_MIN)
		cso = INT32_MIN;
	ptp_put_be32(d + 16, (uint32_t)(int32_t)cso);
	/* scaledLastGmPhaseChange, gmTimeBaseIndicator, lastGmPhaseChange:
	 * zero (d + 20 .. d + 37) */
	ptp_put_be32(d + 38, memcmp(c->pds.gm_identity, c->dds.clock_identity,
	    PTP_CLOCK_ID_LEN) != 0 ? 1 : 0);	/* gmPresent */
	memcpy(d + 42, c->pds.gm_identity, PTP_CLOCK_ID_LEN);
	return MGMT_LEN_TIME_STATUS_NP;
}

/* "xx:xx:xx" of the manufacturerIdentity key; zeros if malformed. */
static void
mgmt_oui(const char *s, uint8_t *out)
{
	unsigned a, b, x;
	char end;

	memset(out, 0, 3);
	if (s != NULL && sscanf(s, "%2x:%2x:%2x%c", &a, &b, &x, &end) == 3) {
		out[0] = (uint8_t)a;
		out[1] = (uint8_t)b;
		out[2] = (uint8_t)x;
	}
}

/* 15.5.3.1.2; without physical and protocol addresses (netd's). */
static size_t
mgmt_clock_description(const struct clockd *c, const struct cport *p,
    uint8_t *d)
{
	/* defaultDS profiles: E2E and P2P default profile identifiers */
	static const uint8_t prof_e2e[6] = { 0x00, 0x1B, 0x19, 0x00, 0x01, 0 };
	static const uint8_t prof_p2p[6] = { 0x00, 0x1B, 0x19, 0x00, 0x02, 0 };
	/* the telecom profiles' identifiers (ITU-T OUI 00-19-A7), which
	 * ptp4l reports under dataset_comparison G.8275.x: G.8275.1 over
	 * IEEE 802.3, G.8275.2 over UDP */
	static const uint8_t prof_8275_1[6] = { 0x00, 0x19, 0xA7, 1, 2, 3 };
	static const uint8_t prof_8275_2[6] = { 0x00, 0x19, 0xA7, 2, 1, 2 };
	const uint8_t *prof;
	uint16_t proto;
	size_t n = 0;

	/* clockType bits: ordinary clock 0x8000, boundary clock 0x4000 */
	ptp_put_be16(d, c->nports > 1 ? 0x4000 : 0x8000);
	n += 2;
	n += mgmt_put_text(d + n, "IEEE 802.3", 32);
	ptp_put_be16(d + n, 0);		/* physicalAddressLength */
	n += 2;
	/* protocolAddress: networkProtocol (Table 3 values), no address */
	switch (p->transport) {
	case 2:		proto = 1; break;	/* UDP/IPv4 */
	case 3:		proto = 2; break;	/* UDP/IPv6 */
	default:	proto = 3; break;	/* IEEE 802.3 */
	}
	ptp_put_be16(d + n, proto);
	ptp_put_be16(d + n + 2, 0);
	n += 4;
	mgmt_oui(mgmt_cfg_str(c, "manufacturerIdentity", "00:00:00"), d + n);
	n += 4;				/* and a reserved octet */
	n += mgmt_put_text(d + n, mgmt_cfg_str(c, "productDescription", ";;"),
	    64);
	n += mgmt_put_text(d + n, mgmt_cfg_str(c, "revisionData", ";;"), 32);
	n += mgmt_put_text(d + n, mgmt_cfg_str(c, "userDescription", ""), 128);
	if (p->delay_mechanism == DM_P2P)
		prof = prof_p2p;
	else if (c->dscmp == BMC_DSCMP_G8275)
		prof = proto == 3 ? prof_8275_1 : prof_8275_2;
	else
		prof = prof_e2e;
	memcpy(d + n, prof, 6);
	n += 6;
	return n;
}

/* ---- requests ---- */

/* A clock-level GET; 0 with *len set, or an error id. */
static uint16_t
mgmt_get_clock(const struct clockd *c, uint16_t id, uint8_t *d, size_t *len)
{
	switch (id) {
	case PTP_MID_NULL_PTP_MANAGEMENT:
		*len = 0;
		return 0;
	case PTP_MID_USER_DESCRIPTION:
		*len = mgmt_put_text(d, mgmt_cfg_str(c, "userDescription", ""),
		    128);
		return 0;
	case PTP_MID_DEFAULT_DATA_SET:
		*len = mgmt_default_ds(c, d);
		return 0;
	case PTP_MID_CURRENT_DATA_SET:
		*len = mgmt_current_ds(c, d);
		return 0;
	case PTP_MID_PARENT_DATA_SET:
		*len = mgmt_parent_ds(c, d);
		return 0;
	case PTP_MID_TIME_PROPERTIES_DATA_SET:
		*len = mgmt_time_properties_ds(c, d);
		return 0;
	case PTP_MID_PRIORITY1:
		d[0] = c->dds.priority1;
		*len = MGMT_LEN_PRIORITY;
		return 0;
	case PTP_MID_PRIORITY2:
		d[0] = c->dds.priority2;
		*len = MGMT_LEN_PRIORITY;
		return 0;
	case PTP_MID_DOMAIN:
		d[0] = c->dds.domain_number;
		*len = MGMT_LEN_DOMAIN;
		return 0;
	case MGMT_MID_TIME_STATUS_NP:
		*len = mgmt_time_status_np(c, d);
		return 0;
	}
	return PTP_MERR_NOT_SUPPORTED;
}

static size_t
mgmt_get_port(const struct clockd *c, const struct cport *p, uint16_t id,
    uint8_t *d)
{
	switch (id) {
	case PTP_MID_CLOCK_DESCRIPTION:
		return mgmt_clock_description(c, p, d);
	case PTP_MID_PORT_DATA_SET:
		return mgmt_port_ds(p, d);
	case MGMT_MID_PORT_DATA_SET_NP:
		return mgmt_port_ds_np(c, p, d);
	}
	return 0;
}

/* Port-level ids: every port (0xFFFF) or the one addressed. */
static void
mgmt_serve_ports(struct mgmt_req *r)
{
	const struct clockd *c = r->c;
	uint16_t target = r->m.body.management.target_port_identity.port_number;
	uint8_t d[MGMT_MSG_MAX - PTP_MANAGEMENT_LEN - 8];
	unsigned i;

	if (target != MGMT_ALL_PORTS && (target == 0 || target > c->nports)) {
		mgmt_reply_error(r, PTP_MERR_WRONG_VALUE);
		return;
	}
	for (i = 0; i < c->nports && !r->stop; i++) {
		const struct cport *p = &c->ports[i];
		size_t len;

		if (target != MGMT_ALL_PORTS && target != i + 1)
			continue;
		memset(d, 0, sizeof(d));
		len = mgmt_get_port(c, p, r->id, d);
		mgmt_reply_data(r, &p->identity, d, len);
	}
}

static void
mgmt_serve_get(struct mgmt_req *r, const struct mgmt_id *e)
{
	uint8_t d[MGMT_MSG_MAX - PTP_MANAGEMENT_LEN - 8];
	struct ptp_port_identity pid;
	uint16_t err;
	size_t len = 0;

	if (!(e->flags & F_GET) || !(e->flags & F_SERVE_GET)) {
		mgmt_reply_error(r, PTP_MERR_NOT_SUPPORTED);
		return;
	}
	/* 15.5.3: a GET has no dataField; pmc sends a zero-filled one of
	 * the response's length, which is accepted too. */
	if (r->data_len != 0 && e->len != 0 && r->data_len != e->len) {
		mgmt_reply_error(r, PTP_MERR_WRONG_LENGTH);
		return;
	}
	if (e->flags & F_PORT) {
		mgmt_serve_ports(r);
		return;
	}
	memset(d, 0, sizeof(d));
	if ((err = mgmt_get_clock(r->c, r->id, d, &len)) != 0) {
		mgmt_reply_error(r, err);
		return;
	}
	pid = mgmt_clock_pid(r);
	mgmt_reply_data(r, &pid, d, len);
}

static void
mgmt_serve_set(struct mgmt_req *r, const struct mgmt_id *e,
    struct mgmt_set *set)
{
	struct ptp_port_identity pid = mgmt_clock_pid(r);
	uint8_t d[2] = { 0, 0 };

	if (!(e->flags & F_SET)) {
		mgmt_reply_error(r, PTP_MERR_NOT_SETABLE);
		return;
	}
	/* Refused before the length is looked at, so that a sender without
	 * the right learns nothing more (ptp4l: NOT_SUPPORTED off its
	 * read-write port). */
	if (!(e->flags & F_SERVE_SET) || !r->src->may_set) {
		mgmt_reply_error(r, PTP_MERR_NOT_SUPPORTED);
		return;
	}
	if (r->data_len != e->len) {
		mgmt_reply_error(r, PTP_MERR_WRONG_LENGTH);
		return;
	}
	switch (r->id) {
	case PTP_MID_NULL_PTP_MANAGEMENT:
		mgmt_reply_data(r, &pid, NULL, 0);
		return;
	case PTP_MID_PRIORITY1:
	case PTP_MID_PRIORITY2:
		/* priorityN (UInteger8), reserved; every value is valid
		 * (8.2.1.4.1, 8.2.1.4.2) */
		d[0] = r->data[0];
		if (set != NULL) {
			set->what = r->id == PTP_MID_PRIORITY1 ?
			    MGMT_SET_PRIORITY1 : MGMT_SET_PRIORITY2;
			set->value = d[0];
		}
		/* The response carries the value now in force (15.4.1). */
		mgmt_reply_data(r, &pid, d, sizeof(d));
		return;
	}
	mgmt_reply_error(r, PTP_MERR_NOT_SUPPORTED);
}

static void
mgmt_serve_command(struct mgmt_req *r, const struct mgmt_id *e)
{
	struct ptp_port_identity pid = mgmt_clock_pid(r);

	if (!(e->flags & F_CMD) || !(e->flags & F_SERVE_CMD) ||
	    !r->src->may_set) {
		mgmt_reply_error(r, PTP_MERR_NOT_SUPPORTED);
		return;
	}
	if (r->data_len != 0) {
		mgmt_reply_error(r, PTP_MERR_WRONG_LENGTH);
		return;
	}
	/* NULL_PTP_MANAGEMENT: nothing to do but acknowledge (15.5.3.1.1) */
	mgmt_reply_data(r, &pid, NULL, 0);
}

static int
mgmt_is_all_ones(const uint8_t *id)
{
	unsigned i;

	for (i = 0; i < PTP_CLOCK_ID_LEN; i++)
		if (id[i] != 0xFF)
			return 0;
	return 1;
}

int
mgmt_process(const struct clockd *c, const uint8_t *buf, size_t len,
    const struct mgmt_src *src, mgmt_emit_fn emit, void *arg,
    struct mgmt_set *set)
{
	struct mgmt_req r;
	struct ptp_mgmt_tlv mt;
	struct ptp_tlv tlv;
	const struct mgmt_id *e;
	const uint8_t *target;
	int rc;

	if (set != NULL)
		set->what = MGMT_SET_NONE;
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.src = src;
	r.emit = emit;
	r.arg = arg;
	if ((rc = ptp_msg_parse(&r.m, buf, len)) < 0)
		return rc;
	if (r.m.hdr.message_type != PTP_MT_MANAGEMENT)
		return PTP_E_MSG_TYPE;
	if (r.m.hdr.domain_number != c->dds.domain_number)
		return 0;
	/* For this clock: its own clockIdentity or all ones (15.4.1). */
	target = r.m.body.management.target_port_identity.clock_identity;
	if (!mgmt_is_all_ones(target) && memcmp(target,
	    c->dds.clock_identity, PTP_CLOCK_ID_LEN) != 0)
		return 0;
	switch (r.m.body.management.action) {
	case PTP_MA_GET:
	case PTP_MA_SET:
	case PTP_MA_COMMAND:
		break;
	default:
		return 0;	/* RESPONSE, ACKNOWLEDGE: answers, not asks */
	}
	/* One management TLV (15.4.1); an error status is an answer. */
	if (r.m.tlv_count != 1 || ptp_msg_mgmt_tlv(&r.m, &tlv) != 0 ||
	    tlv.type != PTP_TLV_MANAGEMENT || ptp_tlv_mgmt_parse(&tlv, &mt) != 0)
		return 0;
	r.id = mt.id;
	r.data = mt.data;
	r.data_len = mt.data_len;

	if ((e = mgmt_lookup(r.id)) == NULL)
		mgmt_reply_error(&r, PTP_MERR_NO_SUCH_ID);
	else if (r.m.body.management.action == PTP_MA_GET)
		mgmt_serve_get(&r, e);
	else if (r.m.body.management.action == PTP_MA_SET)
		mgmt_serve_set(&r, e, set);
	else
		mgmt_serve_command(&r, e);
	return r.sent;
}

size_t
mgmt_forward_copy(const uint8_t *buf, size_t len, uint8_t *out)
{
	struct ptp_msg m;
	size_t n;

	if (ptp_msg_parse(&m, buf, len) != 0 ||
	    m.hdr.message_type != PTP_MT_MANAGEMENT ||
	    m.body.management.boundary_hops == 0)
		return 0;
	/* boundaryHops is octet 45 (15.4.1: after targetPortIdentity and
	 * startingBoundaryHops); padding past messageLength is not sent. */
	n = m.hdr.message_length;
	memcpy(out, buf, n);
	out[45] = (uint8_t)(m.body.management.boundary_hops - 1);
	return n;
}
