/*
 * ptp-netd - the privileged network and clock daemon of ptpsep.
 *
 * The life of the process, in order (chrony's main.c shows the order of
 * its modules the same way):
 *   1. configuration and command line;
 *   2. the clock (system, /dev/ptpN or virtual) and its bounds;
 *   3. the ports' sockets (ETH_P_1588 / UDP 319+320, BPF attached and
 *      locked before bind), and the rtnetlink link monitor;
 *   4. the IPC sockets: netd_socket for clockd, netd_ctl_socket for ptpctl;
 *   5. the privilege drop: netd_user, only the capabilities this
 *      configuration needs, empty bounding set, no_new_privs;
 *   6. the event loop until SIGINT/SIGTERM.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <malloc.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "cfg.h"
#include "cli.h"
#include "log.h"
#include "netd.h"
#include "nlmon.h"
#include "phc.h"
#include "notify.h"
#include "priv.h"
#include "sockpath.h"

static struct netd netd;

static void
main_ev_signal(evutil_socket_t sig, short what, void *arg)
{
	struct netd *nd = arg;

	log_info("signal %d: exiting", (int)sig);
	event_base_loopbreak(nd->base);
}

static void
main_nl_event(const struct nlmon_event *ev, void *arg)
{
	struct netd *nd = arg;

	switch (ev->type) {
	case NLMON_EV_CREATED:
		port_link_event(nd, ev->ifname, ev->ifindex, 1, ev->carrier, 0);
		break;
	case NLMON_EV_UP:
		port_link_event(nd, ev->ifname, ev->ifindex, 0, 1, 0);
		break;
	case NLMON_EV_DOWN:
		port_link_event(nd, ev->ifname, ev->ifindex, 0, 0, 0);
		break;
	case NLMON_EV_DELETED:
		port_link_event(nd, ev->ifname, ev->ifindex, 0, 0, 1);
		break;
	case NLMON_EV_MAC_CHANGED:
		port_mac_changed(nd, ev->ifname, ev->ifindex, ev->addr,
		    ev->addr_len);
		break;
	}
}

static void
main_ev_netlink(evutil_socket_t fd, short what, void *arg)
{
	struct netd *nd = arg;

	(void)nlmon_read(nd->nl, main_nl_event, nd);
}

static void
main_ev_tick(evutil_socket_t fd, short what, void *arg)
{
	struct netd *nd = arg;
	size_t i;

	for (i = 0; i < nd->nports; i++)
		port_expire_tx(&nd->ports[i]);
	netd_arm_tick(nd);
}

/*
 * The TX timestamp timer runs only while a timestamp is owed, so an idle
 * netd does not wake up (cheaper for the machine than a fixed tick).
 */
void
netd_arm_tick(struct netd *nd)
{
	struct timeval tv = { 0, 5000 };	/* 5 ms */
	size_t i;

	if (evtimer_pending(nd->tick_ev, NULL))
		return;
	for (i = 0; i < nd->nports; i++)
		if (nd->ports[i].txmap_used > 0) {
			evtimer_add(nd->tick_ev, &tv);
			return;
		}
}


/*
 * The event base ignores libevent's EVENT_* environment variables: with
 * EVENT_EPOLL_USE_CHANGELIST set, the epoll_ctl DEL/ADD pair around a
 * software time-stamped send (port_send(), tstamp.c) would be merged into
 * nothing and the error-queue wake-up would again fall between the time
 * stamp and the frame's departure; nor may the environment pick a backend.
 * Precise timers: otherwise libevent reads CLOCK_MONOTONIC_COARSE and
 * rounds epoll_wait's timeout to milliseconds, and a held message's
 * timer (outq.h) woke netd two or three times instead of once
 * (tests/bench/scale.sh, SCALE_TRACE).
 */
static struct event_base *
main_event_base(void)
{
	struct event_config *cfg;
	struct event_base *base;

	if ((cfg = event_config_new()) == NULL)
		return NULL;
	(void)event_config_set_flag(cfg, EVENT_BASE_FLAG_IGNORE_ENV);
	(void)event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
	base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	return base;
}

/*
 * With hardware time stamps the clock is the ports' PHC: each port's
 * driver must offer what phc_port_check() needs, all ports one PHC, and
 * it must be the one clock_device names (auto: whichever it is).  A port
 * missing at start is waited for only when the PHC is named: with auto
 * its PHC cannot be known.  Writes the device to open into dev.
 */
static int
main_resolve_clock(struct netd *nd, char *dev, size_t len)
{
	const char *conf = cfg_get_str(nd->cfg, NULL, "clock_device");
	int ts = cfg_get_int(nd->cfg, NULL, "time_stamping");
	struct phc_caps *caps = NULL;
	enum transport_kind *kinds = NULL;
	enum cfg_clock_kind kind;
	size_t i, n = cfg_port_count(nd->cfg);
	int idx, index, auto_dev, rc = -1;
	char why[512];

	nd->phc_index = -1;
	snprintf(dev, len, "%s", conf);
	if (cfg_clock_device_parse(conf, &kind, &idx) != 0)
		return -1;	/* main() validated it */
	auto_dev = kind == CFG_CLK_AUTO;
	if (auto_dev)
		kind = cfg_clock_auto_kind(ts);
	if (kind != CFG_CLK_PHC) {
		if (auto_dev)
			snprintf(dev, len, "system");
		return 0;
	}
	if (ts == CFG_TS_SOFTWARE)
		return 0;	/* refused by cli_check_hw() */
	caps = calloc(n, sizeof(*caps));
	kinds = calloc(n, sizeof(*kinds));
	if (caps == NULL || kinds == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		const char *ifname = cfg_port_name(nd->cfg, i);

		/* UDPv4 and UDPv6 need the same (L4) event filter. */
		kinds[i] = cfg_get_int(nd->cfg, ifname, "network_transport") ==
		    CFG_TRANS_L2 ? TR_L2 : TR_UDP4;
		phc_probe(ifname, &caps[i]);
		if (caps[i].err == -ENODEV && !auto_dev)
			log_info("%s: not there yet: waited for (its PHC must "
			    "be %s)", ifname, conf);
	}
	if (phc_resolve(caps, kinds, n, port_step(nd->cfg), auto_dev ? -1 :
	    idx, &index, why, sizeof(why)) != 0) {
		log_warnx("%s", why);
		goto out;
	}
	nd->phc_index = index;
	snprintf(dev, len, "/dev/ptp%d", index);
	if (auto_dev)
		log_info("clock_device auto: %s, the PHC of %s (driver %s)",
		    dev, caps[0].ifname, caps[0].driver);
	rc = 0;
out:
	free(kinds);
	free(caps);
	return rc;
}

static int
main_open_clock(struct netd *nd)
{
	struct clock_params cp;
	char dev[sizeof(nd->clock_device)];
	char why[256];

	if (main_resolve_clock(nd, dev, sizeof(dev)) != 0)
		return -1;
	memset(&cp, 0, sizeof(cp));
	cp.virtual_offset_ns = cfg_get_int64(nd->cfg, NULL,
	    "virtual_clock_offset_ns");
	cp.virtual_freq_ppb = cfg_get_double(nd->cfg, NULL,
	    "virtual_clock_freq_ppb");
	snprintf(nd->clock_device, sizeof(nd->clock_device), "%s", dev);
	nd->clk = clock_open(dev, &cp);
	if (nd->clk == NULL)
		return -1;

	/* main() validated the configuration: this cannot fail. */
	if (clock_bounds_from_cfg(nd->cfg, &nd->bounds, why,
	    sizeof(why)) != 0) {
		log_warnx("%s", why);
		return -1;
	}
	clock_bounds_state_init(&nd->bstate);
	log_info("clock %s (max |freq| %g ppb, steps %s, max |step| %lld ns, "
	    "%u steps per %lld s, %lld ms between frequency changes; 0: no "
	    "limit)", dev, nd->bounds.max_freq_ppb,
	    nd->bounds.allow_step ? "allowed" : "refused",
	    (long long)nd->bounds.max_step_ns, nd->bounds.max_steps,
	    (long long)(nd->bounds.step_interval_ns / NSEC_PER_SEC),
	    (long long)(nd->bounds.min_adj_interval_ns / 1000000));
	return 0;
}

/*
 * The system clock as a second clock (sync_system_clock 1, doc/design.md
 * "the system clock from the PHC"): CLOCK_REALTIME, or for tests a second
 * virtual clock, independent of the first.  Same bounds as the PTP clock,
 * its own step window.  The keys are read whatever their value, so that
 * the key audit sees them read.  cli_check_sysclk() refused the pairs that
 * make no sense (the PTP clock the system clock itself).
 */
static int
main_open_sys_clock(struct netd *nd)
{
	struct clock_params cp;
	int sync = cfg_get_int(nd->cfg, NULL, "sync_system_clock");
	int dev = cfg_get_int(nd->cfg, NULL, "system_clock_device");
	int leap = cfg_get_int(nd->cfg, NULL, "kernel_leap");

	memset(&cp, 0, sizeof(cp));
	cp.virtual_offset_ns = cfg_get_int64(nd->cfg, NULL,
	    "virtual_system_clock_offset_ns");
	cp.virtual_freq_ppb = cfg_get_double(nd->cfg, NULL,
	    "virtual_system_clock_freq_ppb");
	nd->cmp_samples = cfg_get_int(nd->cfg, NULL, "system_clock_samples");
	nd->cmp_last_ns = -1;
	nd->cmp_method = CLOCK_CMP_NONE;
	/* A virtual PTP clock beside a system clock plays a PHC on TAI. */
	nd->ptp_timescale = nd->clk->kind == CLOCK_KIND_PHC ||
	    (sync && nd->clk->kind == CLOCK_KIND_VIRTUAL);
	/*
	 * kernel_leap 0: no leap second on any clock; a clock on PTP time
	 * (TAI) never takes one (ClockInfo.leap_allowed, clock_apply()).
	 */
	if (!leap || nd->ptp_timescale)
		nd->clk->leap_allowed = 0;
	if (!sync)
		return 0;
	if (nd->clk->kind == CLOCK_KIND_SYSTEM) {
		log_warnx("sync_system_clock 1: the PTP clock is the system "
		    "clock");
		return -1;
	}
	nd->sysclk = dev == CFG_SYSCLK_VIRTUAL ? vclock_open(&cp) :
	    clock_system_open();
	if (nd->sysclk == NULL)
		return -1;
	nd->sysclk_device = dev == CFG_SYSCLK_VIRTUAL ? "virtual" : "system";
	if (dev == CFG_SYSCLK_VIRTUAL)
		snprintf(nd->sysclk->name, sizeof(nd->sysclk->name),
		    "virtual system clock");
	nd->sysclk->leap_allowed = leap;
	clock_bounds_state_init(&nd->sys_bstate);
	nd->cmp_method = clock_cmp_probe(nd->clk, nd->sysclk,
	    nd->cmp_samples);
	if (nd->cmp_method == CLOCK_CMP_NONE)
		return -1;
	log_info("system clock: %s, compared with %s by %s (%d sample(s)), "
	    "the same bounds", nd->sysclk->name, nd->clk->name,
	    clock_cmp_method_name(nd->cmp_method), nd->cmp_samples);
	return 0;
}

/*
 * netd's own checks of a configuration (cli.h): the clock bounds, as
 * main_open_clock() will build them.  The start and --check-config both
 * run it through cli_validate().
 */
static int
main_check_config(const struct cfg *cfg, char *why, size_t len)
{
	struct clock_bounds b;

	return clock_bounds_from_cfg(cfg, &b, why, len) == 0 ? 0 : -1;
}

static void
main_needs(struct netd *nd, struct priv_needs *needs)
{
	size_t i;

	memset(needs, 0, sizeof(*needs));
	for (i = 0; i < nd->nports; i++) {
		/* Reopening after a link change needs what opening needed. */
		needs->net_raw = 1;	/* packet sockets, SO_BINDTODEVICE */
		if (nd->ports[i].params.kind != TR_L2)
			needs->net_bind_service = 1;	/* UDP 319/320 */
		if (nd->ports[i].params.ts_mode == TS_HARDWARE)
			needs->net_admin = 1;		/* SIOCSHWTSTAMP */
	}
	/* The system clock as either clock; a virtual one needs nothing. */
	if (nd->clk->kind == CLOCK_KIND_SYSTEM || (nd->sysclk != NULL &&
	    nd->sysclk->kind == CLOCK_KIND_SYSTEM))
		needs->sys_time = 1;
}

static int
main_run(struct netd *nd, const struct cli *cli)
{
	struct priv_needs needs;
	struct passwd *pw;
	const char *user, *cuser, *sock, *ctlsock;
	uid_t sock_uid = 0, client_uid = 0;
	gid_t sock_gid = 0;
	struct event *sigint, *sigterm;
	char caps[128];
	size_t i, nopen = 0;

	nd->listen_fd = nd->client_fd = -1;
	nd->nports = cfg_port_count(nd->cfg);
	if (nd->nports == 0)
		fatalx("no ports: give -i IFACE or an [IFACE] section");
	if (nd->nports > IPC_MAX_PORTS)
		fatalx("at most %d ports", IPC_MAX_PORTS);
	if ((nd->base = main_event_base()) == NULL)
		fatalx("event_base_new failed");
	if (main_open_clock(nd) != 0)
		fatalx("cannot open clock_device %s (time_stamping %s)",
		    cfg_get_str(nd->cfg, NULL, "clock_device"),
		    cfg_get_enum_name(nd->cfg, NULL, "time_stamping"));
	if (main_open_sys_clock(nd) != 0)
		fatalx("cannot open the system clock (sync_system_clock 1, "
		    "system_clock_device %s)", cfg_get_enum_name(nd->cfg, NULL,
		    "system_clock_device"));

	nd->ports = calloc(nd->nports, sizeof(*nd->ports));
	if (nd->ports == NULL)
		fatal("calloc");
	for (i = 0; i < nd->nports; i++) {
		if (port_init(nd, &nd->ports[i], (unsigned)i,
		    cfg_port_name(nd->cfg, i)) != 0)
			fatalx("port %zu (%s): bad configuration", i,
			    cfg_port_name(nd->cfg, i));
		/* A missing interface is waited for (link monitor). */
		if (port_open(&nd->ports[i]) == 0)
			nopen++;
	}
	if (nopen == 0)
		log_warnx("no port could be opened yet; waiting for links");

	if ((nd->nl = nlmon_open()) == NULL)
		fatalx("cannot open the rtnetlink link monitor");
	nd->nl_ev = event_new(nd->base, nlmon_fd(nd->nl), EV_READ | EV_PERSIST,
	    main_ev_netlink, nd);
	if (nd->nl_ev == NULL || event_add(nd->nl_ev, NULL) != 0)
		fatalx("cannot watch rtnetlink");
	(void)nlmon_request_dump(nd->nl);

	user = cfg_get_str(nd->cfg, NULL, "netd_user");
	cuser = cfg_get_str(nd->cfg, NULL, "clockd_user");
	if ((pw = getpwnam(cuser)) != NULL) {
		client_uid = pw->pw_uid;
		sock_gid = pw->pw_gid;
	} else {
		log_warnx("clockd_user %s does not exist: only root may "
		    "connect", cuser);
	}
	if ((pw = getpwnam(user)) != NULL)
		sock_uid = pw->pw_uid;
	nd->client_uid = client_uid;

	sock = cfg_get_str(nd->cfg, NULL, "netd_socket");
	ctlsock = cfg_get_str(nd->cfg, NULL, "netd_ctl_socket");
	/* Each makes its directory (/run/ptpsep) if missing: sockpath.c. */
	if (relay_listen(nd, sock, sock_uid, sock_gid) != 0)
		fatalx("cannot listen on netd_socket %s", sock);
	if (ctlsrv_listen(nd, ctlsock) != 0)
		fatalx("cannot listen on netd_ctl_socket %s", ctlsock);

	nd->tick_ev = evtimer_new(nd->base, main_ev_tick, nd);
	if (nd->tick_ev == NULL)
		fatalx("cannot create the TX timestamp timer");
	sigint = evsignal_new(nd->base, SIGINT, main_ev_signal, nd);
	sigterm = evsignal_new(nd->base, SIGTERM, main_ev_signal, nd);
	if (sigint == NULL || sigterm == NULL || event_add(sigint, NULL) ||
	    event_add(sigterm, NULL))
		fatalx("cannot watch signals");
	signal(SIGPIPE, SIG_IGN);

	/* Everything privileged is open: drop to netd_user. */
	main_needs(nd, &needs);
	priv_describe(&needs, caps, sizeof(caps));
	if (getuid() == 0) {
		if (priv_drop(user, &needs) != 0)
			fatalx("cannot drop privileges to %s", user);
		log_info("running as %s with %s", user, caps);
	} else {
		log_warnx("not started as root: privileges not changed");
	}
	/*
	 * Start-up is over: give back the heap pages its freed buffers left
	 * (the configuration file, stdio's, the user lookups), which the
	 * loop, allocating nothing per frame, would never reuse.
	 */
	(void)malloc_trim(0);
	log_info("ready: %zu port(s), netd_socket %s", nd->nports, sock);
	(void)notify_send("READY=1");

	event_base_dispatch(nd->base);
	(void)notify_send("STOPPING=1");

	relay_close_client(nd, NULL);
	ctlsrv_close_all(nd);
	for (i = 0; i < nd->nports; i++)
		port_close(&nd->ports[i]);
	/* Only a socket is removed, never what may stand there instead. */
	(void)sockpath_unlink(sock);
	(void)sockpath_unlink(ctlsock);
	event_free(sigint);
	event_free(sigterm);
	event_free(nd->tick_ev);
	event_free(nd->nl_ev);
	if (nd->listen_ev)
		event_free(nd->listen_ev);
	if (nd->hello_tmo)
		event_free(nd->hello_tmo);
	nlmon_close(nd->nl);
	clock_close(nd->sysclk);
	clock_close(nd->clk);
	for (i = 0; i < nd->nports; i++)
		port_free(&nd->ports[i]);
	free(nd->ports);
	event_base_free(nd->base);
	return 0;
}

int
main(int argc, char **argv)
{
	struct cli cli = {
		.prog = "ptp-netd",
		.summary = "The privileged network and clock daemon of ptpsep.",
		.accept_iface = 1,
		.check = main_check_config,
	};
	enum cli_result r;
	char why[512];
	int rc, log_err, log_sys;

	log_init("netd", 1, LOG_LVL_INFO);
	if ((netd.cfg = cfg_new()) == NULL)
		fatalx("cannot set up the configuration");
	r = cli_parse(&cli, netd.cfg, argc, argv);
	if (r != CLI_RUN) {
		cfg_free(netd.cfg);
		return r == CLI_EXIT_OK ? 0 : 2;
	}
	if (cli.check_config) {
		rc = cli_check_config_verdict(&cli, netd.cfg);
		cfg_free(netd.cfg);
		return rc;
	}
	if (cfg_error_count(netd.cfg) > 0)
		fatalx("configuration has errors; see above");
	if (cli_validate(&cli, netd.cfg, why, sizeof(why)) != 0)
		fatalx("%s", why);
	/* verbose, use_syslog, message_tag: as ptp4l (-m, -q override). */
	log_outputs(cli.foreground, cli.quiet, cfg_get_int(netd.cfg, NULL,
	    "verbose"), cfg_get_int(netd.cfg, NULL, "use_syslog"), &log_err,
	    &log_sys);
	log_init_outputs("netd", log_err, log_sys,
	    cfg_get_str(netd.cfg, NULL, "message_tag"),
	    cli.log_level >= 0 ? (enum log_level)cli.log_level :
	    (enum log_level)cfg_get_int(netd.cfg, NULL, "logging_level"));
	rc = main_run(&netd, &cli);
	cfg_free(netd.cfg);
	return rc;
}
