/*
 * netd_client.c - the test client of ptp-netd's end-to-end tests (netd.sh).
 *
 * It speaks netd.proto over netd_socket as clockd would (or as a hostile
 * clockd would), ctl.proto over netd_ctl_socket, and plays the far end of
 * the veth pair with raw sockets:
 *
 *   netd_client recv SOCK [--count N] [--timeout S]
 *   netd_client send SOCK [--port I] [--class event|general]
 *       [--dest primary|pdelay|unicast:ADDR] (--msg TYPE|--hex HEX)
 *       [--seq N] [--cookie C] [--want-ts] [--follow-up]
 *       (--follow-up: with a Follow_Up for netd to complete and send; then
 *       no TxTimestamp is the success: "TXTS none")
 *       [--count N] (a burst of N, sequenceId --seq on; "BURST n=N";
 *       with --want-ts in NetdBatches, cookies --cookie on, every
 *       TxTimestamp counted: "TXBURST n=N ok=K failed=F ...")
 *       [--batch-freq PPB] (in one NetdBatch with a ClockRequest that
 *       sets the frequency and a read behind it: "BATCHFREQ freq_ppb=F")
 *   netd_client clock SOCK OP [ARG] ...    OP: read, status, freq PPB, step NS,
 *                                           compare, leap +1|-1|0 [tai N];
 *                                           --system / --ptp: the
 *                                           ops after it act on that clock
 *   netd_client hostile SOCK CASE          (netd_client help lists them)
 *   netd_client info CTLSOCK
 *   netd_client inject IFACE (--msg TYPE|--hex HEX) [--seq N] [--vlan VID]
 *       [--dst MAC] [--ethertype T] [--count N] [--follow-up]
 *       (--follow-up: each message followed by a Follow_Up of its seq)
 *   netd_client flood IFACE --count N [--dst MAC]
 *   netd_client udpsend --dst ADDR --ifname IF [--port P] (--msg|--hex)
 *       [--seq N] [--count N]
 *   netd_client udpflood --dst ADDR --count N
 *   netd_client sniff IFACE --proto l2|ip4|ip6 [--count N] [--timeout S]
 *
 * Output is one line per event, "KEY k=v k=v ...", for the script to grep.
 * A NetdBatch from netd is one line "BATCH id=N n=K members=a,b,..." and
 * then its members, each printed as if it had come alone.
 * Exit status: 0 when what was asked for happened, 1 on failure, 2 on bad
 * usage, 3 on a timeout.
 *
 * This file holds main, the options and the helpers; netd_client.h says
 * where the subcommands live.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "netd_client.h"

void
usage(void)
{
	fprintf(stderr,
	    "usage: netd_client recv|send|clock|hostile SOCK ...\n"
	    "       netd_client info CTLSOCK\n"
	    "       netd_client inject|flood|sniff IFACE ...\n"
	    "       netd_client udpsend|udpflood --dst ADDR ...\n"
	    "hostile cases: nonptp wrongclass badport oversize garbage "
	    "nohello version\n"
	    "       unicast nan gents empty busy perm bigstep adjburst "
	    "badfu\n"
	    "       batch_empty batch_nine batch_nested batch_hello "
	    "batch_rx\n");
	exit(2);
}

void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stdout, "ERROR ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, "\n");
	va_end(ap);
	fflush(stdout);
	exit(1);
}

int64_t
now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ---- PTP payloads -------------------------------------------------------- */

struct msgtype {
	const char *name;
	uint8_t type;
	size_t len;
};

static const struct msgtype msgtypes[] = {
	{ "sync",		0x0, 44 },
	{ "delay_req",		0x1, 44 },
	{ "pdelay_req",		0x2, 54 },
	{ "pdelay_resp",	0x3, 54 },
	{ "follow_up",		0x8, 44 },
	{ "delay_resp",		0x9, 54 },
	{ "pdelay_resp_fup",	0xA, 54 },
	{ "announce",		0xB, 64 },
	{ "signaling",		0xC, 44 },
	{ "management",		0xD, 48 },
};

/* Builds a minimal PTPv2 message; returns its length. */
size_t
build_msg(const char *name, unsigned seq, uint8_t *buf, size_t cap)
{
	size_t i;

	for (i = 0; i < sizeof(msgtypes) / sizeof(msgtypes[0]); i++) {
		const struct msgtype *m = &msgtypes[i];

		if (strcmp(name, m->name) != 0)
			continue;
		if (cap < m->len)
			die("buffer too small");
		memset(buf, 0, m->len);
		buf[0] = m->type;
		buf[1] = 0x02;			/* versionPTP 2 */
		buf[2] = (uint8_t)(m->len >> 8);
		buf[3] = (uint8_t)m->len;
		buf[6] = 0x02;			/* flagField: twoStepFlag */
		memcpy(buf + 20, "\x02\x00\x5e\xff\xfe\x00\x00\x01", 8);
		buf[29] = 1;			/* sourcePortIdentity.portNumber */
		buf[30] = (uint8_t)(seq >> 8);
		buf[31] = (uint8_t)seq;
		buf[32] = m->type <= 0x3 ? m->type : 0x5;
		buf[33] = 0x7f;
		return m->len;
	}
	die("unknown message type %s", name);
}

static size_t
parse_hex(const char *hex, uint8_t *buf, size_t cap)
{
	size_t n = 0;
	unsigned v;

	while (*hex != '\0') {
		if (*hex == ':' || *hex == ' ' || *hex == '-') {
			hex++;
			continue;
		}
		if (n == cap || sscanf(hex, "%2x", &v) != 1 || hex[1] == '\0')
			die("bad hex payload");
		buf[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

int
parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4],
	    &v[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return 0;
}

const char *
fmt_mac(const uint8_t *m)
{
	static char s[4][18];
	static int k;

	k = (k + 1) % 4;
	snprintf(s[k], sizeof(s[k]), "%02x:%02x:%02x:%02x:%02x:%02x", m[0],
	    m[1], m[2], m[3], m[4], m[5]);
	return s[k];
}

const char *
ptp_type_name(uint8_t t)
{
	size_t i;

	for (i = 0; i < sizeof(msgtypes) / sizeof(msgtypes[0]); i++)
		if (msgtypes[i].type == (t & 0x0f))
			return msgtypes[i].name;
	return "?";
}

/* ---- options -------------------------------------------------------------- */

void
opts_parse(struct opts *o, int argc, char **argv, int first)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->count = 1;
	o->timeout = 5;
	o->cls = "event";
	o->dest = "primary";
	o->cookie = 0x1234abcd5678ULL;
	o->vlan = -1;
	o->ethertype = ETH_P_1588;
	o->udp_port = 0;
	o->proto = "l2";
	for (i = first; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--want-ts") == 0) {
			o->want_ts = 1;
			continue;
		}
		if (strcmp(a, "--follow-up") == 0) {
			o->want_ts = o->follow_up = 1;
			continue;
		}
		if (v == NULL)
			usage();
		i++;
		if (strcmp(a, "--count") == 0)
			o->count = strtol(v, NULL, 0);
		else if (strcmp(a, "--timeout") == 0)
			o->timeout = strtod(v, NULL);
		else if (strcmp(a, "--port") == 0)
			o->port = (unsigned)strtoul(v, NULL, 0);
		else if (strcmp(a, "--class") == 0)
			o->cls = v;
		else if (strcmp(a, "--dest") == 0)
			o->dest = v;
		else if (strcmp(a, "--msg") == 0)
			o->msg = v;
		else if (strcmp(a, "--hex") == 0)
			o->hex = v;
		else if (strcmp(a, "--seq") == 0)
			o->seq = (unsigned)strtoul(v, NULL, 0);
		else if (strcmp(a, "--cookie") == 0)
			o->cookie = strtoull(v, NULL, 0);
		else if (strcmp(a, "--vlan") == 0)
			o->vlan = (int)strtol(v, NULL, 0);
		else if (strcmp(a, "--pcp") == 0)
			o->pcp = (int)strtol(v, NULL, 0) & 7;
		else if (strcmp(a, "--dst") == 0)
			o->dst = v;
		else if (strcmp(a, "--ethertype") == 0)
			o->ethertype = (unsigned)strtoul(v, NULL, 0);
		else if (strcmp(a, "--ifname") == 0)
			o->ifname = v;
		else if (strcmp(a, "--udp-port") == 0 ||
		    strcmp(a, "--dport") == 0)
			o->udp_port = (unsigned)strtoul(v, NULL, 0);
		else if (strcmp(a, "--proto") == 0)
			o->proto = v;
		else if (strcmp(a, "--batch-freq") == 0) {
			o->batch_freq = 1;
			o->freq_ppb = strtod(v, NULL);
		}
		else
			usage();
	}
}

size_t
opts_payload(const struct opts *o, uint8_t *buf, size_t cap)
{
	if (o->hex != NULL)
		return parse_hex(o->hex, buf, cap);
	if (o->msg != NULL)
		return build_msg(o->msg, o->seq, buf, cap);
	die("--msg or --hex needed");
}

int
main(int argc, char **argv)
{
	struct opts o;
	const char *cmd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		usage();
	cmd = argv[1];
	if (strcmp(cmd, "udpsend") == 0 || strcmp(cmd, "udpflood") == 0) {
		opts_parse(&o, argc, argv, 2);
		return cmd[3] == 's' ? cmd_udpsend(&o) : cmd_udpflood(&o);
	}
	if (argc < 3)
		usage();
	if (strcmp(cmd, "clock") == 0)
		return cmd_clock(argv[2], argc - 3, argv + 3);
	if (strcmp(cmd, "hostile") == 0) {
		if (argc != 4)
			usage();
		return cmd_hostile(argv[2], argv[3]);
	}
	if (strcmp(cmd, "info") == 0)
		return cmd_info(argv[2]);
	opts_parse(&o, argc, argv, 3);
	if (strcmp(cmd, "recv") == 0)
		return cmd_recv(argv[2], &o);
	if (strcmp(cmd, "send") == 0)
		return cmd_send(argv[2], &o);
	if (strcmp(cmd, "inject") == 0)
		return cmd_inject(argv[2], &o);
	if (strcmp(cmd, "flood") == 0)
		return cmd_flood(argv[2], &o);
	if (strcmp(cmd, "sniff") == 0)
		return cmd_sniff(argv[2], &o);
	usage();
}
