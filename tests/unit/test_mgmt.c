/*
 * test_mgmt.c - PTP management (clockd/mgmt.c, IEEE 1588-2019 clause 15):
 * the layout of every dataField served, SET, the error statuses, the
 * addressing of clocks and ports, the header of responses, and the
 * boundary-hops copy.  Requests are built octet by octet so that malformed
 * ones can be made too.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cfg.h"
#include "clockd/clockd.h"
#include "clockd/mgmt.h"
#include "ptp_be.h"
#include "ptp_msg.h"
#include "ptp_tlv.h"

static const uint8_t OWN[8] = { 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
static const uint8_t GM[8] = { 0x0a, 0x0b, 0x0c, 0xff, 0xfe, 0x0d, 0x0e, 0x0f };
static const uint8_t REQ[8] = { 0xaa, 0xbb, 0xcc, 0xff, 0xfe, 0xdd, 0xee, 0x01 };
static const uint8_t ALL[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static struct clockd clk;

static void
clock_fixture(void)
{
	unsigned i;

	memset(&clk, 0, sizeof(clk));
	clk.cfg = cfg_new();
	assert_non_null(clk.cfg);
	memcpy(clk.dds.clock_identity, OWN, 8);
	clk.dds.number_ports = 2;
	clk.dds.quality.clock_class = 248;
	clk.dds.quality.clock_accuracy = 0xfe;
	clk.dds.quality.offset_scaled_log_variance = 0xffff;
	clk.dds.priority1 = 100;
	clk.dds.priority2 = 110;
	clk.dds.domain_number = 0;
	clk.dds.two_step = 1;
	clk.cds.steps_removed = 1;
	clk.cds.offset_from_master = -123;
	clk.cds.mean_path_delay = 4567;
	memcpy(clk.pds.parent_port_identity.clock_identity, GM, 8);
	clk.pds.parent_port_identity.port_number = 1;
	memcpy(clk.pds.gm_identity, GM, 8);
	clk.pds.gm_quality.clock_class = 6;
	clk.pds.gm_quality.clock_accuracy = 0x21;
	clk.pds.gm_quality.offset_scaled_log_variance = 0x4e5d;
	clk.pds.gm_priority1 = 1;
	clk.pds.gm_priority2 = 2;
	clk.tds.current_utc_offset = 37;
	clk.tds.flags = PTP_FLAG_UTC_OFFSET_VALID | PTP_FLAG_PTP_TIMESCALE |
	    PTP_FLAG_TIME_TRACEABLE;
	clk.tds.time_source = 0x20;
	clk.nports = 2;
	clk.slave_port = 0;
	for (i = 0; i < 2; i++) {
		struct cport *p = &clk.ports[i];

		p->c = &clk;
		p->index = i;
		memcpy(p->identity.clock_identity, OWN, 8);
		p->identity.port_number = (uint16_t)(i + 1);
		memcpy(p->iface, i ? "eth1" : "eth0", 5);
		p->transport = i ? 2 : 1;
		p->state = i ? PS_MASTER : PS_SLAVE;
		p->log_min_delay_req_interval = -1;
		p->log_announce_interval = 1;
		p->announce_receipt_timeout = 3;
		p->log_sync_interval = -3;
		p->delay_mechanism = i ? DM_P2P : DM_E2E;
		p->log_min_pdelay_req_interval = 2;
		p->have_delay = 1;
		p->path_delay = 789LL << 16;
	}
	clk.ports[0].last_sync_valid = 1;
	clk.ports[0].last_sync.t2.sec = 1700000000;
	clk.ports[0].last_sync.t2.nsec = 5;
	clk.ports[0].have_rr = 1;
	clk.ports[0].rate_ratio = 1.0 + 1.0 / 1048576.0;	/* 2^-20 */
}

static int
setup(void **state)
{
	(void)state;
	clock_fixture();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	cfg_free(clk.cfg);
	return 0;
}

/* ---- requests ---- */

struct rq {
	uint8_t		 action;
	uint16_t	 id;
	const uint8_t	*data;
	size_t		 dlen;
	const uint8_t	*target;	/* NULL: all ones */
	uint16_t	 port;		/* target portNumber */
	uint8_t		 domain;
	uint8_t		 start_hops, hops;
};

#define RQ(act, mid) { .action = (act), .id = (mid), .port = 0xffff, \
	.start_hops = 3, .hops = 1 }

static size_t
build(uint8_t *b, const struct rq *r)
{
	size_t tlen = 2 + r->dlen + (r->dlen & 1), len = 48 + 4 + tlen;

	memset(b, 0, 48 + 4 + tlen);
	b[0] = PTP_MT_MANAGEMENT;
	b[1] = 0x12;			/* minor 1, version 2 */
	ptp_put_be16(b + 2, (uint16_t)len);
	b[4] = r->domain;
	memcpy(b + 20, REQ, 8);
	ptp_put_be16(b + 28, 7);	/* requester's portNumber */
	ptp_put_be16(b + 30, 0x1234);	/* sequenceId */
	b[32] = 4;
	b[33] = 0x7f;
	memcpy(b + 34, r->target != NULL ? r->target : ALL, 8);
	ptp_put_be16(b + 42, r->port);
	b[44] = r->start_hops;
	b[45] = r->hops;
	b[46] = r->action;
	ptp_put_be16(b + 48, PTP_TLV_MANAGEMENT);
	ptp_put_be16(b + 50, (uint16_t)tlen);
	ptp_put_be16(b + 52, r->id);
	if (r->dlen)
		memcpy(b + 54, r->data, r->dlen);
	return len;
}

/* ---- responses ---- */

#define MAXR 8

struct out {
	int		n;
	size_t		len[MAXR];
	uint8_t		buf[MAXR][MGMT_MSG_MAX];
	struct ptp_msg	m[MAXR];
	struct ptp_tlv	tlv[MAXR];
};

static struct out out;

static int
collect(void *arg, const uint8_t *msg, size_t len)
{
	struct out *o = arg;

	assert_true(o->n < MAXR);
	memcpy(o->buf[o->n], msg, len);
	o->len[o->n] = len;
	/* every response parses as a well-formed Management message */
	assert_int_equal(ptp_msg_parse(&o->m[o->n], o->buf[o->n], len), 0);
	assert_int_equal(ptp_msg_mgmt_tlv(&o->m[o->n], &o->tlv[o->n]), 0);
	assert_int_equal(o->m[o->n].tlv_count, 1);
	o->n++;
	return 0;
}

static int
run(const struct rq *r, int ingress, int may_set, struct mgmt_set *set)
{
	struct mgmt_src src = { .ingress = ingress, .may_set = may_set };
	uint8_t b[600];
	size_t len = build(b, r);

	memset(&out, 0, sizeof(out));
	return mgmt_process(&clk, b, len, &src, collect, &out, set);
}

/* The dataField of response i, checking its managementId. */
static const uint8_t *
data_of(int i, uint16_t id, size_t *len)
{
	struct ptp_mgmt_tlv mt;

	assert_int_equal(out.tlv[i].type, PTP_TLV_MANAGEMENT);
	assert_int_equal(ptp_tlv_mgmt_parse(&out.tlv[i], &mt), 0);
	assert_int_equal(mt.id, id);
	*len = mt.data_len;
	return out.tlv[i].value + 2;
}

static void
expect_error(int i, uint16_t error_id, uint16_t id)
{
	struct ptp_mgmt_error e;

	assert_int_equal(out.tlv[i].type, PTP_TLV_MANAGEMENT_ERROR_STATUS);
	assert_int_equal(ptp_tlv_mgmt_error_parse(&out.tlv[i], &e), 0);
	assert_int_equal(e.error_id, error_id);
	assert_int_equal(e.mgmt_id, id);
}

static const uint8_t *
get_one(uint16_t id, size_t want_len)
{
	struct rq r = RQ(PTP_MA_GET, id);
	const uint8_t *d;
	size_t len;

	assert_int_equal(run(&r, -1, 0, NULL), 1);
	assert_int_equal(out.n, 1);
	d = data_of(0, id, &len);
	if (want_len)
		assert_int_equal(len, want_len);
	return d;
}

/* ---- GET: every layout ---- */

static void
test_default_ds(void **state)
{
	const uint8_t *d = get_one(PTP_MID_DEFAULT_DATA_SET, 20);

	(void)state;
	assert_int_equal(d[0], 0x01);		/* TSC, not SO */
	assert_int_equal(ptp_get_be16(d + 2), 2);
	assert_int_equal(d[4], 100);
	assert_int_equal(d[5], 248);
	assert_int_equal(d[6], 0xfe);
	assert_int_equal(ptp_get_be16(d + 7), 0xffff);
	assert_int_equal(d[9], 110);
	assert_memory_equal(d + 10, OWN, 8);
	assert_int_equal(d[18], 0);

	clk.dds.slave_only = 1;
	clk.dds.two_step = 0;
	d = get_one(PTP_MID_DEFAULT_DATA_SET, 20);
	assert_int_equal(d[0], 0x02);
}

static void
test_current_ds(void **state)
{
	const uint8_t *d = get_one(PTP_MID_CURRENT_DATA_SET, 18);

	(void)state;
	assert_int_equal(ptp_get_be16(d), 1);
	assert_int_equal((int64_t)ptp_get_be64(d + 2), -123 * 65536LL);
	assert_int_equal((int64_t)ptp_get_be64(d + 10), 4567 * 65536LL);
}

static void
test_parent_ds(void **state)
{
	const uint8_t *d = get_one(PTP_MID_PARENT_DATA_SET, 32);

	(void)state;
	assert_memory_equal(d, GM, 8);
	assert_int_equal(ptp_get_be16(d + 8), 1);
	assert_int_equal(d[10], 0);			/* parentStats */
	assert_int_equal(ptp_get_be16(d + 12), 0xffff);
	assert_int_equal(ptp_get_be32(d + 14), 0x7fffffff);
	assert_int_equal(d[18], 1);
	assert_int_equal(d[19], 6);
	assert_int_equal(d[20], 0x21);
	assert_int_equal(ptp_get_be16(d + 21), 0x4e5d);
	assert_int_equal(d[23], 2);
	assert_memory_equal(d + 24, GM, 8);
}

static void
test_time_properties_ds(void **state)
{
	const uint8_t *d = get_one(PTP_MID_TIME_PROPERTIES_DATA_SET, 4);

	(void)state;
	assert_int_equal(ptp_get_be16(d), 37);
	assert_int_equal(d[2], 0x04 | 0x08 | 0x10);	/* UTCV PTP TTRA */
	assert_int_equal(d[3], 0x20);
}

static void
test_priorities_domain(void **state)
{
	const uint8_t *d;

	(void)state;
	d = get_one(PTP_MID_PRIORITY1, 2);
	assert_int_equal(d[0], 100);
	assert_int_equal(d[1], 0);
	d = get_one(PTP_MID_PRIORITY2, 2);
	assert_int_equal(d[0], 110);
	clk.dds.domain_number = 24;
	{
		struct rq r = RQ(PTP_MA_GET, PTP_MID_DOMAIN);
		size_t len;

		r.domain = 24;
		assert_int_equal(run(&r, -1, 0, NULL), 1);
		d = data_of(0, PTP_MID_DOMAIN, &len);
		assert_int_equal(len, 2);
		assert_int_equal(d[0], 24);
		assert_int_equal(out.m[0].hdr.domain_number, 24);
	}
}

static void
test_user_description(void **state)
{
	const uint8_t *d;

	(void)state;
	d = get_one(PTP_MID_USER_DESCRIPTION, 2);	/* "" and a pad */
	assert_int_equal(d[0], 0);
	assert_int_equal(cfg_set_str(clk.cfg, NULL, "userDescription",
	    "lab;rack 3"), 0);
	d = get_one(PTP_MID_USER_DESCRIPTION, 12);	/* 1 + 10 + pad */
	assert_int_equal(d[0], 10);
	assert_memory_equal(d + 1, "lab;rack 3", 10);
}

static void
test_time_status_np(void **state)
{
	const uint8_t *d = get_one(MGMT_MID_TIME_STATUS_NP, 50);
	size_t i;

	(void)state;
	assert_int_equal((int64_t)ptp_get_be64(d), -123);
	assert_int_equal(ptp_get_be64(d + 8), 1700000000000000005ULL);
	/* (rr - 1) * 2^41 with rr - 1 = 2^-20 */
	assert_int_equal(ptp_get_be32(d + 16), 1u << 21);
	for (i = 20; i < 38; i++)
		assert_int_equal(d[i], 0);
	assert_int_equal(ptp_get_be32(d + 38), 1);	/* gmPresent */
	assert_memory_equal(d + 42, GM, 8);

	/* grandmaster itself: gmPresent false */
	memcpy(clk.pds.gm_identity, OWN, 8);
	d = get_one(MGMT_MID_TIME_STATUS_NP, 50);
	assert_int_equal(ptp_get_be32(d + 38), 0);
}

static void
test_port_ds_all_ports(void **state)
{
	struct rq r = RQ(PTP_MA_GET, PTP_MID_PORT_DATA_SET);
	const uint8_t *d;
	size_t len;
	int i;

	(void)state;
	assert_int_equal(run(&r, -1, 0, NULL), 2);
	for (i = 0; i < 2; i++) {
		d = data_of(i, PTP_MID_PORT_DATA_SET, &len);
		assert_int_equal(len, 26);
		assert_memory_equal(d, OWN, 8);
		assert_int_equal(ptp_get_be16(d + 8), i + 1);
		/* the port answers with its own identity */
		assert_int_equal(
		    out.m[i].hdr.source_port_identity.port_number, i + 1);
		assert_int_equal(d[10], i ? 6 : 9);	/* MASTER, SLAVE */
		assert_int_equal((int8_t)d[11], -1);
		/* peerMeanPathDelay: P2P port only */
		assert_int_equal(ptp_get_be64(d + 12), i ? 789ULL << 16 : 0);
		assert_int_equal(d[20], 1);
		assert_int_equal(d[21], 3);
		assert_int_equal((int8_t)d[22], -3);
		assert_int_equal(d[23], i ? 2 : 1);
		assert_int_equal(d[24], 2);
		assert_int_equal(d[25], 2);
	}
}

static void
test_port_ds_target(void **state)
{
	struct rq r = RQ(PTP_MA_GET, PTP_MID_PORT_DATA_SET);
	const uint8_t *d;
	size_t len;

	(void)state;
	r.port = 2;
	r.target = OWN;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	d = data_of(0, PTP_MID_PORT_DATA_SET, &len);
	assert_int_equal(ptp_get_be16(d + 8), 2);
	/* no such port: WRONG_VALUE (interpretation 21, as ptp4l) */
	r.port = 3;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	expect_error(0, PTP_MERR_WRONG_VALUE, PTP_MID_PORT_DATA_SET);
	r.port = 0;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	expect_error(0, PTP_MERR_WRONG_VALUE, PTP_MID_PORT_DATA_SET);
	/* a clock-level id ignores the portNumber */
	r.id = PTP_MID_PRIORITY1;
	r.port = 9;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	data_of(0, PTP_MID_PRIORITY1, &len);
}

static void
test_port_ds_np(void **state)
{
	struct rq r = RQ(PTP_MA_GET, MGMT_MID_PORT_DATA_SET_NP);
	const uint8_t *d;
	size_t len;

	(void)state;
	assert_int_equal(run(&r, -1, 0, NULL), 2);
	d = data_of(0, MGMT_MID_PORT_DATA_SET_NP, &len);
	assert_int_equal(len, 8);
	assert_int_equal(ptp_get_be32(d), 20000000);
	assert_int_equal(ptp_get_be32(d + 4), 1);
}

static void
test_clock_description(void **state)
{
	struct rq r = RQ(PTP_MA_GET, PTP_MID_CLOCK_DESCRIPTION);
	const uint8_t *d;
	size_t len, n;

	(void)state;
	r.port = 1;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	d = data_of(0, PTP_MID_CLOCK_DESCRIPTION, &len);
	/* walk the fields of 15.5.3.1.2 */
	assert_int_equal(ptp_get_be16(d), 0x4000);	/* boundary: 2 ports */
	n = 2;
	assert_int_equal(d[n], 10);
	assert_memory_equal(d + n + 1, "IEEE 802.3", 10);
	n += 11;
	assert_int_equal(ptp_get_be16(d + n), 0);	/* physicalAddress */
	n += 2;
	assert_int_equal(ptp_get_be16(d + n), 3);	/* IEEE 802.3 (L2) */
	assert_int_equal(ptp_get_be16(d + n + 2), 0);
	n += 4;
	assert_memory_equal(d + n, "\0\0\0\0", 4);	/* OUI, reserved */
	n += 4;
	assert_int_equal(d[n], 2);
	assert_memory_equal(d + n + 1, ";;", 2);	/* productDescription */
	n += 3;
	assert_int_equal(d[n], 2);			/* revisionData */
	n += 3;
	assert_int_equal(d[n], 0);			/* userDescription */
	n += 1;
	assert_memory_equal(d + n, "\x00\x1b\x19\x00\x01\x00", 6);	/* E2E */
	n += 6;
	assert_true(len == n || len == n + 1);		/* pad */

	r.port = 2;				/* P2P, UDPv4 */
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	d = data_of(0, PTP_MID_CLOCK_DESCRIPTION, &len);
	assert_int_equal(ptp_get_be16(d + 15), 1);
	assert_memory_equal(d + n - 6, "\x00\x1b\x19\x00\x02\x00", 6);

	/* dataset_comparison G.8275.x: the telecom profiles' identifiers,
	 * G.8275.1 over L2, G.8275.2 over UDP (as linuxptp 4.x); P2P keeps
	 * its own. */
	clk.dscmp = BMC_DSCMP_G8275;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	d = data_of(0, PTP_MID_CLOCK_DESCRIPTION, &len);
	assert_memory_equal(d + n - 6, "\x00\x1b\x19\x00\x02\x00", 6);
	clk.ports[1].delay_mechanism = DM_E2E;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	d = data_of(0, PTP_MID_CLOCK_DESCRIPTION, &len);
	assert_memory_equal(d + n - 6, "\x00\x19\xa7\x02\x01\x02", 6);
	r.port = 1;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	d = data_of(0, PTP_MID_CLOCK_DESCRIPTION, &len);
	assert_memory_equal(d + n - 6, "\x00\x19\xa7\x01\x02\x03", 6);
	clk.ports[1].delay_mechanism = DM_P2P;
	clk.dscmp = BMC_DSCMP_IEEE1588;
}

/* pmc sends a zero-filled dataField of the response's size; accepted. */
static void
test_get_lengths(void **state)
{
	static const uint8_t z[64];
	struct rq r = RQ(PTP_MA_GET, PTP_MID_CURRENT_DATA_SET);
	size_t len;

	(void)state;
	r.data = z;
	r.dlen = 18;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	data_of(0, PTP_MID_CURRENT_DATA_SET, &len);
	r.dlen = 4;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	expect_error(0, PTP_MERR_WRONG_LENGTH, PTP_MID_CURRENT_DATA_SET);
	r.dlen = 20;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	expect_error(0, PTP_MERR_WRONG_LENGTH, PTP_MID_CURRENT_DATA_SET);
	/* variable-length ids take any */
	r.id = PTP_MID_USER_DESCRIPTION;
	r.dlen = 2;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	data_of(0, PTP_MID_USER_DESCRIPTION, &len);
}

/* ---- SET ---- */

static void
test_set_priority(void **state)
{
	static const uint8_t v[2] = { 42, 0 };
	struct rq r = RQ(PTP_MA_SET, PTP_MID_PRIORITY1);
	struct mgmt_set set;
	const uint8_t *d;
	size_t len;

	(void)state;
	r.data = v;
	r.dlen = 2;
	assert_int_equal(run(&r, -1, 1, &set), 1);
	assert_int_equal(set.what, MGMT_SET_PRIORITY1);
	assert_int_equal(set.value, 42);
	assert_int_equal(out.m[0].body.management.action, PTP_MA_RESPONSE);
	d = data_of(0, PTP_MID_PRIORITY1, &len);
	assert_int_equal(d[0], 42);
	/* the state is not touched: the caller applies the SET */
	assert_int_equal(clk.dds.priority1, 100);

	r.id = PTP_MID_PRIORITY2;
	assert_int_equal(run(&r, -1, 1, &set), 1);
	assert_int_equal(set.what, MGMT_SET_PRIORITY2);

	/* without the right: NOT_SUPPORTED, nothing granted */
	assert_int_equal(run(&r, 0, 0, &set), 1);
	assert_int_equal(set.what, MGMT_SET_NONE);
	expect_error(0, PTP_MERR_NOT_SUPPORTED, PTP_MID_PRIORITY2);

	/* wrong lengths */
	r.dlen = 0;
	assert_int_equal(run(&r, -1, 1, &set), 1);
	assert_int_equal(set.what, MGMT_SET_NONE);
	expect_error(0, PTP_MERR_WRONG_LENGTH, PTP_MID_PRIORITY2);
	r.dlen = 4;
	r.data = (const uint8_t *)"\x01\0\0\0";
	assert_int_equal(run(&r, -1, 1, &set), 1);
	assert_int_equal(set.what, MGMT_SET_NONE);
	expect_error(0, PTP_MERR_WRONG_LENGTH, PTP_MID_PRIORITY2);
}

static void
test_set_refused(void **state)
{
	static const uint8_t z[32];
	struct rq r = RQ(PTP_MA_SET, PTP_MID_DEFAULT_DATA_SET);
	struct mgmt_set set;

	(void)state;
	r.data = z;
	r.dlen = 20;
	assert_int_equal(run(&r, -1, 1, &set), 1);
	expect_error(0, PTP_MERR_NOT_SETABLE, PTP_MID_DEFAULT_DATA_SET);
	r.id = PTP_MID_PORT_DATA_SET;
	r.dlen = 26;
	assert_int_equal(run(&r, -1, 1, &set), 1);
	expect_error(0, PTP_MERR_NOT_SETABLE, PTP_MID_PORT_DATA_SET);
	/* settable in the standard, not here */
	r.id = PTP_MID_DOMAIN;
	r.dlen = 2;
	assert_int_equal(run(&r, -1, 1, &set), 1);
	expect_error(0, PTP_MERR_NOT_SUPPORTED, PTP_MID_DOMAIN);
	assert_int_equal(set.what, MGMT_SET_NONE);
}

/* ---- errors, actions, addressing ---- */

static void
test_errors(void **state)
{
	struct rq r = RQ(PTP_MA_GET, 0x1234);

	(void)state;
	assert_int_equal(run(&r, -1, 1, NULL), 1);
	expect_error(0, PTP_MERR_NO_SUCH_ID, 0x1234);
	r.id = 0xC0FF;
	assert_int_equal(run(&r, -1, 1, NULL), 1);
	expect_error(0, PTP_MERR_NO_SUCH_ID, 0xC0FF);
	/* known, not served */
	r.id = PTP_MID_SLAVE_ONLY;
	assert_int_equal(run(&r, -1, 1, NULL), 1);
	expect_error(0, PTP_MERR_NOT_SUPPORTED, PTP_MID_SLAVE_ONLY);
	r.id = PTP_MID_LOG_SYNC_INTERVAL;
	assert_int_equal(run(&r, -1, 1, NULL), 1);
	expect_error(0, PTP_MERR_NOT_SUPPORTED, PTP_MID_LOG_SYNC_INTERVAL);
	/* COMMAND: only NULL_PTP_MANAGEMENT, acknowledged */
	r.action = PTP_MA_COMMAND;
	r.id = PTP_MID_INITIALIZE;
	assert_int_equal(run(&r, -1, 1, NULL), 1);
	expect_error(0, PTP_MERR_NOT_SUPPORTED, PTP_MID_INITIALIZE);
	assert_int_equal(out.m[0].body.management.action, PTP_MA_ACKNOWLEDGE);
	r.id = PTP_MID_NULL_PTP_MANAGEMENT;
	assert_int_equal(run(&r, -1, 1, NULL), 1);
	assert_int_equal(out.m[0].body.management.action, PTP_MA_ACKNOWLEDGE);
	assert_int_equal(out.tlv[0].type, PTP_TLV_MANAGEMENT);
	assert_int_equal(out.tlv[0].length, 2);
	assert_int_equal(run(&r, 0, 0, NULL), 1);	/* not from the net */
	expect_error(0, PTP_MERR_NOT_SUPPORTED, PTP_MID_NULL_PTP_MANAGEMENT);
	/* GET of a COMMAND-only id */
	r.action = PTP_MA_GET;
	r.id = PTP_MID_ENABLE_PORT;
	assert_int_equal(run(&r, -1, 1, NULL), 1);
	expect_error(0, PTP_MERR_NOT_SUPPORTED, PTP_MID_ENABLE_PORT);
}

static void
test_not_for_us(void **state)
{
	static const uint8_t other[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct rq r = RQ(PTP_MA_GET, PTP_MID_DEFAULT_DATA_SET);

	(void)state;
	r.target = other;
	assert_int_equal(run(&r, -1, 1, NULL), 0);
	assert_int_equal(out.n, 0);
	r.target = OWN;
	assert_int_equal(run(&r, -1, 1, NULL), 1);
	r.domain = 5;					/* another domain */
	assert_int_equal(run(&r, -1, 1, NULL), 0);
	r.domain = 0;
	r.action = PTP_MA_RESPONSE;			/* answers */
	assert_int_equal(run(&r, -1, 1, NULL), 0);
	r.action = PTP_MA_ACKNOWLEDGE;
	assert_int_equal(run(&r, -1, 1, NULL), 0);
	assert_int_equal(out.n, 0);
}

static void
test_malformed(void **state)
{
	struct mgmt_src src = { .ingress = -1, .may_set = 1 };
	struct rq r = RQ(PTP_MA_GET, PTP_MID_DEFAULT_DATA_SET);
	uint8_t b[128];
	size_t len;

	(void)state;
	len = build(b, &r);
	/* truncated: messageLength beyond the bytes */
	memset(&out, 0, sizeof(out));
	assert_true(mgmt_process(&clk, b, len - 2, &src, collect, &out,
	    NULL) < 0);
	/* TLV lengthField overruns the message */
	ptp_put_be16(b + 50, 40);
	assert_int_equal(mgmt_process(&clk, b, len, &src, collect, &out,
	    NULL), PTP_E_TLV_OVERRUN);
	/* odd TLV length */
	ptp_put_be16(b + 50, 1);
	ptp_put_be16(b + 2, (uint16_t)(len - 1));
	assert_true(mgmt_process(&clk, b, len, &src, collect, &out,
	    NULL) < 0);
	/* a MANAGEMENT TLV without its managementId */
	len = build(b, &r);
	ptp_put_be16(b + 50, 0);
	ptp_put_be16(b + 2, 52);
	assert_true(mgmt_process(&clk, b, 52, &src, collect, &out, NULL) < 0);
	/* no TLV at all */
	ptp_put_be16(b + 2, 48);
	assert_int_equal(mgmt_process(&clk, b, 48, &src, collect, &out,
	    NULL), PTP_E_MGMT_NO_TLV);
	/* reserved action */
	len = build(b, &r);
	b[46] = 7;
	assert_int_equal(mgmt_process(&clk, b, len, &src, collect, &out,
	    NULL), PTP_E_MGMT_ACTION);
	/* shorter than a Management message */
	assert_true(mgmt_process(&clk, b, 40, &src, collect, &out, NULL) < 0);
	/* two TLVs: dropped */
	len = build(b, &r);
	memcpy(b + len, "\x80\x08\x00\x00", 4);		/* PAD */
	ptp_put_be16(b + 2, (uint16_t)(len + 4));
	assert_int_equal(mgmt_process(&clk, b, len + 4, &src, collect, &out,
	    NULL), 0);
	/* an error status TLV as the request: dropped */
	len = build(b, &r);
	ptp_put_be16(b + 48, PTP_TLV_MANAGEMENT_ERROR_STATUS);
	ptp_put_be16(b + 50, 8);
	memset(b + 52, 0, 8);
	ptp_put_be16(b + 2, 60);
	assert_int_equal(mgmt_process(&clk, b, 60, &src, collect, &out,
	    NULL), 0);
	/* not Management */
	b[0] = PTP_MT_SIGNALING;
	assert_true(mgmt_process(&clk, b, 60, &src, collect, &out, NULL) <= 0);
	assert_int_equal(out.n, 0);
}

/* 15.4.1 and ptp4l's port_management_reply(): the reply's header. */
static void
test_response_header(void **state)
{
	struct rq r = RQ(PTP_MA_GET, PTP_MID_PRIORITY1);
	const struct ptp_msg *m = &out.m[0];

	(void)state;
	r.start_hops = 5;
	r.hops = 3;
	assert_int_equal(run(&r, -1, 0, NULL), 1);
	assert_int_equal(m->hdr.sequence_id, 0x1234);
	assert_int_equal(m->hdr.control_field, 4);
	assert_int_equal(m->hdr.log_message_interval, 0x7f);
	assert_int_equal(m->body.management.action, PTP_MA_RESPONSE);
	assert_memory_equal(m->body.management.target_port_identity.
	    clock_identity, REQ, 8);
	assert_int_equal(m->body.management.target_port_identity.port_number,
	    7);
	assert_int_equal(m->body.management.starting_boundary_hops, 2);
	assert_int_equal(m->body.management.boundary_hops, 2);
	/* the pmc socket is port 0 of the clock */
	assert_memory_equal(m->hdr.source_port_identity.clock_identity, OWN,
	    8);
	assert_int_equal(m->hdr.source_port_identity.port_number, 0);
	/* from the network: the ingress port */
	assert_int_equal(run(&r, 1, 0, NULL), 1);
	assert_int_equal(m->hdr.source_port_identity.port_number, 2);
}

static void
test_forward(void **state)
{
	struct rq r = RQ(PTP_MA_GET, PTP_MID_PRIORITY1);
	uint8_t b[128], f[128];
	size_t len, n;

	(void)state;
	r.start_hops = 4;
	r.hops = 2;
	len = build(b, &r);
	n = mgmt_forward_copy(b, len + 3, f);	/* padding is not copied */
	assert_int_equal(n, len);
	assert_int_equal(f[45], 1);
	f[45] = 2;
	assert_memory_equal(f, b, len);
	r.hops = 0;
	len = build(b, &r);
	assert_int_equal(mgmt_forward_copy(b, len, f), 0);
	b[0] = PTP_MT_ANNOUNCE;
	assert_int_equal(mgmt_forward_copy(b, len, f), 0);
	assert_int_equal(mgmt_port_forwards(PS_SLAVE), 1);
	assert_int_equal(mgmt_port_forwards(PS_MASTER), 1);
	assert_int_equal(mgmt_port_forwards(PS_LISTENING), 0);
	assert_int_equal(mgmt_port_forwards(PS_FAULTY), 0);
	assert_string_equal(mgmt_id_name(0x2001), "CURRENT_DATA_SET");
	assert_string_equal(mgmt_id_name(0x1234), "UNKNOWN");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_default_ds),
		T(test_current_ds),
		T(test_parent_ds),
		T(test_time_properties_ds),
		T(test_priorities_domain),
		T(test_user_description),
		T(test_time_status_np),
		T(test_port_ds_all_ports),
		T(test_port_ds_target),
		T(test_port_ds_np),
		T(test_clock_description),
		T(test_get_lengths),
		T(test_set_priority),
		T(test_set_refused),
		T(test_errors),
		T(test_not_for_us),
		T(test_malformed),
		T(test_response_header),
		T(test_forward),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
