/*
 * netd_client.h - what the files of the netd test client share:
 *
 *   netd_client.c          main, options, PTP payloads, output helpers
 *   netd_client_ipc.c      netd_socket as clockd (recv, send, clock) and
 *                          netd_ctl_socket (info)
 *   netd_client_hostile.c  hostile clockd cases on netd_socket
 *   netd_client_raw.c      the far end: raw frames, UDP, capture
 */
#ifndef PTPSEP_TESTS_NETD_CLIENT_H
#define PTPSEP_TESTS_NETD_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <linux/if_ether.h>

#include "ipc.h"

typedef Ptpsep__Netd__NetdMsg NetdMsg;

#define EXIT_TIMEOUT	3
#define MAX_PAYLOAD	1500
#ifndef ETH_P_1588
#define ETH_P_1588	0x88F7
#endif

struct opts {
	long count;
	double timeout;
	unsigned port;
	const char *cls;
	const char *dest;
	const char *msg;
	const char *hex;
	unsigned seq;
	uint64_t cookie;
	int want_ts;
	int follow_up;		/* send: TxFrame.follow_up with the Sync */
	int batch_freq;		/* send: in a NetdBatch with ClockAdjFreq */
	double freq_ppb;	/* ... of this frequency */
	int vlan;		/* -1: untagged */
	int pcp;		/* 802.1p priority of the tag */
	const char *dst;
	unsigned ethertype;
	const char *ifname;
	unsigned udp_port;
	const char *proto;
};

/* netd_client.c */
void usage(void) __attribute__((noreturn));
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
int64_t now_ns(clockid_t id);
size_t build_msg(const char *name, unsigned seq, uint8_t *buf, size_t cap);
int parse_mac(const char *s, uint8_t mac[6]);
const char *fmt_mac(const uint8_t *m);
const char *ptp_type_name(uint8_t t);
void opts_parse(struct opts *o, int argc, char **argv, int first);
size_t opts_payload(const struct opts *o, uint8_t *buf, size_t cap);

/* The bounds netd announced in the PortList's ClockInfo (netd_open). */
struct netd_clockinfo {
	int	have;
	int64_t	max_step_ns;		/* 0: no operator limit */
	uint32_t min_adj_interval_ms;	/* 0: no limit */
};
extern struct netd_clockinfo netd_clockinfo;

/* netd_client_ipc.c */
int unix_connect(const char *path);
int recv_netd(int fd, int timeout_ms, NetdMsg **m);
const char *error_code_name(int code);
int print_other(const NetdMsg *m);
void send_hello(int fd, uint32_t version);
int wait_hello(int fd);
int netd_open(const char *path);
void fill_tx(const struct opts *o, Ptpsep__Netd__TxFrame *f,
    Ptpsep__Netd__Address *uni, uint8_t *ub, uint8_t *payload, size_t len);
int64_t ts_ns(const Ptpsep__Timestamp *t);
const char *refuse_name(int r);	/* without the REFUSE_ prefix */
int cmd_recv(const char *path, const struct opts *o);
int cmd_send(const char *path, const struct opts *o);
int cmd_clock(const char *path, int argc, char **argv);
/*
 * netd does not answer an accepted frequency change (netd.proto): a read
 * sent right behind it (netd acts in order) answers for it.
 * clock_send_barrier() sends that read for request id (0, or -1);
 * clock_wait_reply() waits for the answer to request id (barrier: a
 * frequency change followed by its read): netd's own reply, or the read's
 * as the change's (id and status OK set).  Other messages go to other
 * (nonzero: stop, return 1).  IPC_OK with *out, or recv_netd()'s error.
 */
int clock_send_barrier(int fd, uint64_t id);
int clock_wait_reply(int fd, uint64_t id, int barrier, int timeout_ms,
    int (*other)(const NetdMsg *), NetdMsg **out);
int cmd_info(const char *path);

/* netd_client_hostile.c */
int cmd_hostile(const char *path, const char *name);

/* netd_client_raw.c */
int cmd_inject(const char *ifname, const struct opts *o);
int cmd_flood(const char *ifname, const struct opts *o);
int cmd_udpsend(const struct opts *o);
int cmd_udpflood(const struct opts *o);
int cmd_sniff(const char *ifname, const struct opts *o);

#endif
