/*
 * test_nlmon.c - the rtnetlink parser and link table on crafted datagrams:
 * valid messages, every rejection reason, unknown attributes, and the
 * events the table derives (up, down, deleted, re-created, MAC change).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "log.h"
#include "netd/nlmon.h"

/* ---- datagram builder ------------------------------------------------------ */

struct dgram {
	uint8_t	b[4096];
	size_t	len;
	size_t	msg;	/* offset of the message being built */
};

static void
put(struct dgram *d, const void *p, size_t n)
{
	assert_true(d->len + n <= sizeof(d->b));
	memcpy(d->b + d->len, p, n);
	d->len += n;
}

static void
pad(struct dgram *d)
{
	while (d->len % 4)
		d->b[d->len++] = 0;
}

static void
msg_begin(struct dgram *d, uint16_t type, int family, int ifindex,
    unsigned flags)
{
	struct nlmsghdr h;
	struct ifinfomsg ifi;

	d->msg = d->len;
	memset(&h, 0, sizeof(h));
	h.nlmsg_type = type;
	put(d, &h, sizeof(h));
	memset(&ifi, 0, sizeof(ifi));
	ifi.ifi_family = (unsigned char)family;
	ifi.ifi_index = ifindex;
	ifi.ifi_flags = flags;
	put(d, &ifi, sizeof(ifi));
}

static void
attr(struct dgram *d, uint16_t type, const void *p, size_t n)
{
	struct rtattr a;

	a.rta_type = type;
	a.rta_len = (unsigned short)(sizeof(a) + n);
	put(d, &a, sizeof(a));
	put(d, p, n);
	pad(d);
}

static void
msg_end(struct dgram *d)
{
	uint32_t len = (uint32_t)(d->len - d->msg);

	memcpy(d->b + d->msg, &len, sizeof(len));	/* nlmsg_len first */
}

static const uint8_t mac1[6] = { 0x02, 0, 0, 0, 0, 1 };
static const uint8_t mac2[6] = { 0x02, 0, 0, 0, 0, 2 };

#define UP_RUNNING	(IFF_UP | IFF_RUNNING | IFF_BROADCAST)

/* A full link message like the kernel's: name, address, operstate, MTU. */
static void
link_msg(struct dgram *d, uint16_t type, int ifindex, const char *name,
    unsigned flags, uint8_t oper, const uint8_t *mac)
{
	uint32_t mtu = 1500;

	msg_begin(d, type, AF_UNSPEC, ifindex, flags);
	attr(d, IFLA_IFNAME, name, strlen(name) + 1);
	attr(d, IFLA_MTU, &mtu, sizeof(mtu));
	attr(d, IFLA_OPERSTATE, &oper, 1);
	if (mac != NULL)
		attr(d, IFLA_ADDRESS, mac, 6);
	msg_end(d);
}

/* ---- collecting callbacks -------------------------------------------------- */

struct links {
	struct nlmon_link	v[8];
	int			n;
};

static void
collect_link(const struct nlmon_link *l, void *arg)
{
	struct links *ls = arg;

	assert_true(ls->n < 8);
	ls->v[ls->n++] = *l;
}

struct events {
	struct nlmon_event	v[16];
	int			n;
};

static void
collect_event(const struct nlmon_event *ev, void *arg)
{
	struct events *es = arg;

	assert_true(es->n < 16);
	es->v[es->n++] = *ev;
}

static int
parse(const struct dgram *d, struct links *ls)
{
	memset(ls, 0, sizeof(*ls));
	return nlmon_parse(d->b, d->len, collect_link, ls);
}

/* ---- parser: valid input ---------------------------------------------------- */

static void
test_parse_valid(void **state)
{
	struct dgram d = { .len = 0 };
	struct links ls;

	link_msg(&d, RTM_NEWLINK, 7, "eth0", UP_RUNNING, 6, mac1);
	link_msg(&d, RTM_DELLINK, 8, "veth1", 0, 2, NULL);
	assert_int_equal(parse(&d, &ls), 2);
	assert_int_equal(ls.n, 2);
	assert_int_equal(ls.v[0].msg_type, RTM_NEWLINK);
	assert_int_equal(ls.v[0].ifindex, 7);
	assert_string_equal(ls.v[0].ifname, "eth0");
	assert_int_equal(ls.v[0].flags, UP_RUNNING);
	assert_true(ls.v[0].has_operstate);
	assert_int_equal(ls.v[0].operstate, 6);
	assert_int_equal(ls.v[0].addr_len, 6);
	assert_memory_equal(ls.v[0].addr, mac1, 6);
	assert_int_equal(ls.v[1].msg_type, RTM_DELLINK);
	assert_string_equal(ls.v[1].ifname, "veth1");
	assert_int_equal(ls.v[1].addr_len, 0);
}

static void
test_parse_unknown_and_other(void **state)
{
	struct dgram d = { .len = 0 };
	struct links ls;
	uint8_t junk[13] = { 1, 2, 3 };
	struct nlmsghdr h;

	/* Unknown attributes (and a nested flag) are skipped. */
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 3, UP_RUNNING);
	attr(&d, 999, junk, sizeof(junk));
	attr(&d, IFLA_LINKINFO | NLA_F_NESTED, junk, 4);
	attr(&d, IFLA_IFNAME, "lo", 3);
	attr(&d, 0x7fff, junk, 0);
	msg_end(&d);
	/* A NOOP and a message of another type (route) are ignored. */
	memset(&h, 0, sizeof(h));
	h.nlmsg_len = sizeof(h);
	h.nlmsg_type = NLMSG_NOOP;
	put(&d, &h, sizeof(h));
	h.nlmsg_len = sizeof(h) + 8;
	h.nlmsg_type = RTM_NEWROUTE;
	put(&d, &h, sizeof(h));
	put(&d, junk, 8);
	assert_int_equal(parse(&d, &ls), 1);
	assert_string_equal(ls.v[0].ifname, "lo");
	assert_false(ls.v[0].has_operstate);

	/* The last attribute without its padding is accepted. */
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 3, 0);
	attr(&d, IFLA_IFNAME, "ab", 3);
	d.len -= 1;	/* drop the pad octet */
	msg_end(&d);
	assert_int_equal(parse(&d, &ls), 1);
	assert_string_equal(ls.v[0].ifname, "ab");

	/* DONE ends a dump; what follows is not read. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 4, "x", 0, 0, NULL);
	h.nlmsg_len = sizeof(h) + 4;
	h.nlmsg_type = NLMSG_DONE;
	put(&d, &h, sizeof(h));
	put(&d, junk, 4);
	put(&d, junk, 3);	/* garbage after DONE */
	assert_int_equal(parse(&d, &ls), 2);
	assert_int_equal(ls.v[1].msg_type, NLMSG_DONE);

	/* Empty datagram: nothing. */
	assert_int_equal(nlmon_parse(d.b, 0, collect_link, &ls), 0);
}

static void
test_parse_unaligned(void **state)
{
	struct dgram d = { .len = 0 };
	static uint8_t buf[4096 + 1];
	struct links ls;

	link_msg(&d, RTM_NEWLINK, 9, "eth9", UP_RUNNING, 6, mac2);
	memcpy(buf + 1, d.b, d.len);	/* odd address: memcpy'd headers */
	memset(&ls, 0, sizeof(ls));
	assert_int_equal(nlmon_parse(buf + 1, d.len, collect_link, &ls), 1);
	assert_int_equal(ls.v[0].ifindex, 9);
}

/* ---- parser: rejections ------------------------------------------------------ */

static void
expect_reject(const struct dgram *d, int err)
{
	struct links ls;

	assert_int_equal(parse(d, &ls), -err);
	assert_int_equal(ls.n, 0);	/* nothing delivered */
	assert_string_not_equal(nlmon_strerror(-err), "unknown error");
}

static void
test_parse_truncated(void **state)
{
	struct dgram d = { .len = 0 }, t;
	size_t cut;

	link_msg(&d, RTM_NEWLINK, 7, "eth0", UP_RUNNING, 6, mac1);
	/* Every truncation of a valid message is rejected. */
	for (cut = 1; cut < d.len; cut++) {
		struct links ls;
		int rc;

		t = d;
		t.len = cut;
		rc = parse(&t, &ls);
		assert_true(rc < 0);
		assert_int_equal(ls.n, 0);
	}
	t = d;
	t.len = 10;
	expect_reject(&t, NLMON_E_SHORT_HDR);
	t.len = d.len - 1;
	expect_reject(&t, NLMON_E_MSG_LEN);
	/* A good message followed by 3 stray octets: all rejected. */
	t = d;
	put(&t, "abc", 3);
	expect_reject(&t, NLMON_E_SHORT_HDR);
}

static void
test_parse_bad_lengths(void **state)
{
	struct dgram d = { .len = 0 };
	struct rtattr a;
	uint32_t v;

	/* nlmsg_len smaller than the header. */
	link_msg(&d, RTM_NEWLINK, 7, "eth0", 0, 6, NULL);
	v = 8;
	memcpy(d.b, &v, 4);
	expect_reject(&d, NLMON_E_MSG_LEN);
	/* nlmsg_len past the end. */
	v = (uint32_t)d.len + 4;
	memcpy(d.b, &v, 4);
	expect_reject(&d, NLMON_E_MSG_LEN);

	/* Link message too short for ifinfomsg. */
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	d.len -= 4;
	msg_end(&d);
	expect_reject(&d, NLMON_E_SHORT_IFINFO);

	/* rta_len below 4, and beyond the message. */
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	a.rta_len = 2;
	a.rta_type = IFLA_MTU;
	put(&d, &a, sizeof(a));
	msg_end(&d);
	expect_reject(&d, NLMON_E_ATTR_LEN);
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "eth0", 5);
	a.rta_len = 200;
	a.rta_type = IFLA_MTU;
	put(&d, &a, sizeof(a));
	put(&d, "1234", 4);
	msg_end(&d);
	expect_reject(&d, NLMON_E_ATTR_LEN);
	/* 2 octets left after the attributes: not an rtattr. */
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "eth0", 5);
	put(&d, "\0\0", 2);
	msg_end(&d);
	expect_reject(&d, NLMON_E_ATTR_LEN);

	/* NLMSG_ERROR too short, and with an error. */
	{
		struct nlmsghdr h = { 0 };
		int e = -1;

		d.len = 0;
		h.nlmsg_len = sizeof(h) + 2;
		h.nlmsg_type = NLMSG_ERROR;
		put(&d, &h, sizeof(h));
		put(&d, &e, 2);
		expect_reject(&d, NLMON_E_SHORT_ERRMSG);
		d.len = 0;
		h.nlmsg_len = sizeof(h) + 4;
		put(&d, &h, sizeof(h));
		put(&d, &e, 4);
		expect_reject(&d, NLMON_E_KERNEL);
	}
}

static void
test_parse_bad_attributes(void **state)
{
	struct dgram d = { .len = 0 };
	uint8_t big[40] = { 0 }, oper = 7;
	char name[IFNAMSIZ + 1];

	/* Name: not NUL-terminated, empty, too long, missing, twice. */
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "eth0", 4);
	msg_end(&d);
	expect_reject(&d, NLMON_E_IFNAME);
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "", 1);
	msg_end(&d);
	expect_reject(&d, NLMON_E_IFNAME);
	d.len = 0;
	memset(name, 'a', sizeof(name));
	name[IFNAMSIZ] = '\0';
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, name, sizeof(name));
	msg_end(&d);
	expect_reject(&d, NLMON_E_IFNAME);
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	msg_end(&d);
	expect_reject(&d, NLMON_E_NO_IFNAME);
	d.len = 0;
	msg_begin(&d, RTM_DELLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "a", 2);
	attr(&d, IFLA_IFNAME, "b", 2);
	msg_end(&d);
	expect_reject(&d, NLMON_E_DUP_ATTR);
	/* A 15-character name, the longest, is fine. */
	d.len = 0;
	name[IFNAMSIZ - 1] = '\0';
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, name, IFNAMSIZ);
	msg_end(&d);
	{
		struct links ls;

		assert_int_equal(parse(&d, &ls), 1);
		assert_int_equal(strlen(ls.v[0].ifname), IFNAMSIZ - 1);
	}

	/* Address: empty or longer than 32. */
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "e", 2);
	attr(&d, IFLA_ADDRESS, big, 0);
	msg_end(&d);
	expect_reject(&d, NLMON_E_ADDR);
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "e", 2);
	attr(&d, IFLA_ADDRESS, big, 33);
	msg_end(&d);
	expect_reject(&d, NLMON_E_ADDR);

	/* Operstate: unknown value, wrong size. */
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "e", 2);
	attr(&d, IFLA_OPERSTATE, &oper, 1);
	msg_end(&d);
	expect_reject(&d, NLMON_E_OPERSTATE);
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 1, 0);
	attr(&d, IFLA_IFNAME, "e", 2);
	attr(&d, IFLA_OPERSTATE, big, 4);
	msg_end(&d);
	expect_reject(&d, NLMON_E_OPERSTATE);

	/* ifindex 0 or negative. */
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 0, 0);
	attr(&d, IFLA_IFNAME, "e", 2);
	msg_end(&d);
	expect_reject(&d, NLMON_E_IFINDEX);
	d.len = 0;
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, -5, 0);
	attr(&d, IFLA_IFNAME, "e", 2);
	msg_end(&d);
	expect_reject(&d, NLMON_E_IFINDEX);

	/* One bad message spoils the datagram: the good one is not given. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 7, "eth0", UP_RUNNING, 6, mac1);
	msg_begin(&d, RTM_NEWLINK, AF_UNSPEC, 8, 0);
	msg_end(&d);
	expect_reject(&d, NLMON_E_NO_IFNAME);
}

/* ---- link table -------------------------------------------------------------- */

static int
feed(struct nlmon_state *st, const struct dgram *d, struct events *es)
{
	memset(es, 0, sizeof(*es));
	return nlmon_feed(st, d->b, d->len, collect_event, es);
}

static void
test_events_lifecycle(void **state)
{
	struct nlmon_state st;
	struct dgram d = { .len = 0 };
	struct events es;

	nlmon_state_init(&st);
	/* Appears, down (no carrier yet): CREATED only. */
	link_msg(&d, RTM_NEWLINK, 10, "veth0", IFF_BROADCAST, 2, mac1);
	assert_int_equal(feed(&st, &d, &es), 1);
	assert_int_equal(es.v[0].type, NLMON_EV_CREATED);
	assert_int_equal(es.v[0].ifindex, 10);
	assert_int_equal(es.v[0].old_ifindex, 0);
	assert_string_equal(es.v[0].ifname, "veth0");
	assert_memory_equal(es.v[0].addr, mac1, 6);
	/* Admin up without carrier (LOWERLAYERDOWN): nothing. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 10, "veth0", IFF_UP | IFF_BROADCAST, 3,
	    mac1);
	assert_int_equal(feed(&st, &d, &es), 0);
	/* Carrier: UP. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 10, "veth0", UP_RUNNING, 6, mac1);
	assert_int_equal(feed(&st, &d, &es), 1);
	assert_int_equal(es.v[0].type, NLMON_EV_UP);
	assert_int_equal(es.v[0].carrier, 1);
	/* Same again: nothing. */
	assert_int_equal(feed(&st, &d, &es), 0);
	/* MAC change while up. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 10, "veth0", UP_RUNNING, 6, mac2);
	assert_int_equal(feed(&st, &d, &es), 1);
	assert_int_equal(es.v[0].type, NLMON_EV_MAC_CHANGED);
	assert_memory_equal(es.v[0].addr, mac2, 6);
	/* Running but operstate DORMANT: no carrier. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 10, "veth0", UP_RUNNING, 5, mac2);
	assert_int_equal(feed(&st, &d, &es), 1);
	assert_int_equal(es.v[0].type, NLMON_EV_DOWN);
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 10, "veth0", UP_RUNNING, 6, mac2);
	assert_int_equal(feed(&st, &d, &es), 1);
	assert_int_equal(es.v[0].type, NLMON_EV_UP);
	/* Deleted. */
	d.len = 0;
	link_msg(&d, RTM_DELLINK, 10, "veth0", 0, 2, mac2);
	assert_int_equal(feed(&st, &d, &es), 1);
	assert_int_equal(es.v[0].type, NLMON_EV_DELETED);
	assert_int_equal(es.v[0].ifindex, 10);
	/* Re-created with a new index, already up: CREATED + UP. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 12, "veth0", UP_RUNNING, 6, mac1);
	assert_int_equal(feed(&st, &d, &es), 2);
	assert_int_equal(es.v[0].type, NLMON_EV_CREATED);
	assert_int_equal(es.v[0].ifindex, 12);
	assert_int_equal(es.v[0].old_ifindex, 10);
	assert_int_equal(es.v[1].type, NLMON_EV_UP);
	nlmon_state_free(&st);
}

static void
test_events_missed_delete_and_rename(void **state)
{
	struct nlmon_state st;
	struct dgram d = { .len = 0 };
	struct events es;

	nlmon_state_init(&st);
	link_msg(&d, RTM_NEWLINK, 20, "p0", UP_RUNNING, 6, mac1);
	assert_int_equal(feed(&st, &d, &es), 2);
	/* Same name, new index, no RTM_DELLINK seen: DELETED + CREATED. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 21, "p0", IFF_BROADCAST, 2, mac1);
	assert_int_equal(feed(&st, &d, &es), 2);
	assert_int_equal(es.v[0].type, NLMON_EV_DELETED);
	assert_int_equal(es.v[0].ifindex, 20);
	assert_int_equal(es.v[1].type, NLMON_EV_CREATED);
	assert_int_equal(es.v[1].ifindex, 21);
	assert_int_equal(es.v[1].old_ifindex, 20);
	/* Renamed p0 -> p1: p0 deleted, p1 created, same index. */
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 21, "p1", IFF_BROADCAST, 2, mac1);
	assert_int_equal(feed(&st, &d, &es), 2);
	assert_int_equal(es.v[0].type, NLMON_EV_DELETED);
	assert_string_equal(es.v[0].ifname, "p0");
	assert_int_equal(es.v[1].type, NLMON_EV_CREATED);
	assert_string_equal(es.v[1].ifname, "p1");
	assert_int_equal(es.v[1].ifindex, 21);
	/* AF_BRIDGE messages (bridge port changes) are not link changes. */
	d.len = 0;
	msg_begin(&d, RTM_DELLINK, AF_BRIDGE, 21, 0);
	attr(&d, IFLA_IFNAME, "p1", 3);
	msg_end(&d);
	assert_int_equal(feed(&st, &d, &es), 0);
	/* Deleting an unknown index still reports it. */
	d.len = 0;
	link_msg(&d, RTM_DELLINK, 99, "ghost", 0, 2, NULL);
	assert_int_equal(feed(&st, &d, &es), 1);
	assert_int_equal(es.v[0].type, NLMON_EV_DELETED);
	assert_string_equal(es.v[0].ifname, "ghost");
	/* A rejected datagram changes nothing. */
	d.len = 0;
	link_msg(&d, RTM_DELLINK, 21, "p1", 0, 2, NULL);
	d.len -= 1;
	assert_true(feed(&st, &d, &es) < 0);
	assert_int_equal(es.n, 0);
	nlmon_state_free(&st);
}

static void
test_events_dump_sweep(void **state)
{
	struct nlmon_state st;
	struct dgram d = { .len = 0 };
	struct events es;
	struct nlmsghdr h = { 0 };

	nlmon_state_init(&st);
	link_msg(&d, RTM_NEWLINK, 1, "lo", IFF_UP | IFF_RUNNING, 0, NULL);
	link_msg(&d, RTM_NEWLINK, 2, "a", IFF_BROADCAST, 2, mac1);
	assert_int_equal(feed(&st, &d, &es), 3);	/* lo CREATED+UP, a */
	/* Resync after an overrun: the dump lists only lo, then DONE. */
	nlmon_state_dump_begin(&st);
	d.len = 0;
	link_msg(&d, RTM_NEWLINK, 1, "lo", IFF_UP | IFF_RUNNING, 0, NULL);
	h.nlmsg_len = sizeof(h) + 4;
	h.nlmsg_type = NLMSG_DONE;
	put(&d, &h, sizeof(h));
	put(&d, "\0\0\0\0", 4);
	assert_int_equal(feed(&st, &d, &es), 1);
	assert_int_equal(es.v[0].type, NLMON_EV_DELETED);
	assert_string_equal(es.v[0].ifname, "a");
	/* A DONE outside a dump sweeps nothing. */
	assert_int_equal(feed(&st, &d, &es), 0);
	nlmon_state_free(&st);
}

static void
test_names(void **state)
{
	assert_string_equal(nlmon_event_name(NLMON_EV_CREATED), "created");
	assert_string_equal(nlmon_event_name(NLMON_EV_MAC_CHANGED),
	    "mac-changed");
	assert_string_equal(nlmon_strerror(-NLMON_E_ATTR_LEN),
	    "bad attribute length");
	assert_string_equal(nlmon_strerror(12345), "unknown error");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_valid),
		cmocka_unit_test(test_parse_unknown_and_other),
		cmocka_unit_test(test_parse_unaligned),
		cmocka_unit_test(test_parse_truncated),
		cmocka_unit_test(test_parse_bad_lengths),
		cmocka_unit_test(test_parse_bad_attributes),
		cmocka_unit_test(test_events_lifecycle),
		cmocka_unit_test(test_events_missed_delete_and_rename),
		cmocka_unit_test(test_events_dump_sweep),
		cmocka_unit_test(test_names),
	};

	log_init("test", 1, LOG_LVL_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
