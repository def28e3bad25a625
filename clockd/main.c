/*
 * ptp-clockd - the unprivileged PTP engine of ptpsep.
 *
 * The life of the process:
 *   1. configuration and command line;
 *   2. if started as root, drop at once to clockd_user with no capability
 *      at all and no_new_privs; started as another user (systemd User=,
 *      setpriv), shed every capability that came along (priv_shed()).
 *      Either way all five capability sets (CapInh, CapPrm, CapEff,
 *      CapBnd, CapAmb) are read back and must be 0, or clockd refuses to
 *      run, naming what is left;
 *   3. once its sockets and event loop are set up, install the seccomp
 *      allow-list (sandbox.c) and tell systemd READY=1 (notify.c);
 *   4. connect to netd (netd_socket) and run the clock and its ports until
 *      SIGINT/SIGTERM.  netd going away puts the ports FAULTY and clockd
 *      reconnects with backoff.
 */
#include "config.h"

#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "cfg.h"
#include "cli.h"
#include "clockd.h"
#include "ctlsrv.h"
#include "env_event.h"
#include "log.h"
#include "notify.h"
#include "pmcsock.h"
#include "priv.h"
#include "sandbox.h"

static struct clockd clockd;

static void
main_ev_signal(evutil_socket_t sig, short what, void *arg)
{
	log_info("signal %d: exiting", (int)sig);
	event_base_loopbreak(arg);
}

int
main(int argc, char **argv)
{
	struct cli cli = {
		.prog = "ptp-clockd",
		.summary = "The unprivileged PTP engine of ptpsep.",
		.accept_iface = 0,
	};
	struct priv_needs none;
	struct event_base *base;
	struct event *sigint, *sigterm;
	struct env_event *ee;
	struct cfg *cfg;
	struct ctlsrv *ctl;
	struct pmcsock *pmc;
	const char *user;
	enum cli_result r;
	char why[512];
	int rc, selftest, log_err, log_sys;

	log_init("clockd", 1, LOG_LVL_INFO);
	if ((cfg = cfg_new()) == NULL)
		fatalx("cannot set up the configuration");
	selftest = sandbox_take_selftest_flag(&argc, argv);
	r = cli_parse(&cli, cfg, argc, argv);
	if (r != CLI_RUN) {
		cfg_free(cfg);
		return r == CLI_EXIT_OK ? 0 : 2;
	}
	if (cli.check_config) {
		rc = cli_check_config_verdict(&cli, cfg);
		cfg_free(cfg);
		return rc;
	}
	if (cfg_error_count(cfg) > 0)
		fatalx("configuration has errors; see above");
	/* What --check-config runs too (cli_check_config_verdict). */
	if (cli_validate(&cli, cfg, why, sizeof(why)) != 0)
		fatalx("%s", why);
	/* verbose, use_syslog, message_tag: as ptp4l (-m, -q override). */
	log_outputs(cli.foreground, cli.quiet, cfg_get_int(cfg, NULL,
	    "verbose"), cfg_get_int(cfg, NULL, "use_syslog"), &log_err,
	    &log_sys);
	log_init_outputs("clockd", log_err, log_sys,
	    cfg_get_str(cfg, NULL, "message_tag"),
	    cli.log_level >= 0 ? (enum log_level)cli.log_level :
	    (enum log_level)cfg_get_int(cfg, NULL, "logging_level"));

	/* Nothing clockd does needs a privilege: give them all up first. */
	user = cfg_get_str(cfg, NULL, "clockd_user");
	memset(&none, 0, sizeof(none));
	if (getuid() == 0 || geteuid() == 0) {
		if (priv_drop(user, &none) != 0)
			fatalx("cannot drop privileges to %s", user);
		log_info("running as %s with no capabilities", user);
	} else if (priv_shed() != 0) {
		/* The capabilities still held were named just above. */
		fatalx("refusing to run with capabilities (see above)");
	} else {
		log_info("running as uid %u with no capabilities",
		    (unsigned)getuid());
	}
	srandom((unsigned)time(NULL) ^ (unsigned)getpid());

	if ((base = event_base_new()) == NULL)
		fatalx("event_base_new failed");
	/* The engine's world: libevent's timers and the netd socket. */
	ee = env_event_new(base, cfg_get_str(cfg, NULL, "netd_socket"),
	    &clock_netd_cbs, &clockd);
	if (ee == NULL)
		fatalx("cannot set up the event loop's timers and netd");
	if (clock_init(&clockd, env_event_env(ee), cfg) != 0)
		fatalx("cannot set up the clock");
	clockd.base = base;	/* the control and pmc sockets only */
	ctl = ctlsrv_start(&clockd);	/* NULL: runs without (logged) */
	pmc = pmcsock_start(&clockd);	/* the same */
	sigint = evsignal_new(base, SIGINT, main_ev_signal, base);
	sigterm = evsignal_new(base, SIGTERM, main_ev_signal, base);
	if (sigint == NULL || sigterm == NULL || event_add(sigint, NULL) ||
	    event_add(sigterm, NULL))
		fatalx("cannot watch signals");
	signal(SIGPIPE, SIG_IGN);

	/* Everything is open: from here on only the loop's system calls. */
	if (sandbox_install() != 0)
		fatalx("cannot install the seccomp sandbox");
	if (selftest)
		sandbox_selftest();
	/*
	 * Start-up is over: give back the heap pages its freed buffers left
	 * (the configuration file, the seccomp filter as libseccomp built
	 * it), which the loop would never reuse.  madvise and brk are on the
	 * allow-list (sandbox.c).
	 */
	(void)malloc_trim(0);
	(void)notify_send("READY=1");
	event_base_dispatch(base);
	(void)notify_send("STOPPING=1");

	pmcsock_stop(pmc);
	ctlsrv_stop(ctl);
	clock_fini(&clockd);
	env_event_free(ee);
	event_free(sigint);
	event_free(sigterm);
	event_base_free(base);
	cfg_free(cfg);
	return 0;
}
