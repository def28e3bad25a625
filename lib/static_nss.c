/*
 * static_nss.c - the name databases of the statically linked daemons.
 *
 * Linked into ptp-netd and ptp-clockd only (Makefile.am), and only does
 * anything when they are linked statically (configure's default, see
 * configure.ac and doc/design.md).  A static glibc reads /etc/passwd and
 * /etc/group itself ("files" is built in), but for any other module named
 * in /etc/nsswitch.conf (Debian's default is "files systemd") it dlopen()s
 * the shared libnss_*.so.2, which pulls a second, shared libc into the
 * process: with glibc 2.36 a getpwnam() of a name missing from
 * /etc/passwd then crashes (SIGSEGV in the loaded libc) instead of
 * returning NULL.  The daemons look up their users (netd_user,
 * clockd_user) and admin_group and its members, and a missing one is a
 * configuration error or warning, never a crash; so before main() the
 * databases they or libevent may reach are limited to the files.  Users and
 * groups that only LDAP, sssd or systemd's dynamic users know need the
 * dynamic build (--disable-static-daemons); systemd-sysusers, which the
 * packaging uses, writes /etc/passwd.  tests/cli/static_nss.sh checks it.
 */
#include "config.h"

#ifdef PTPSEP_STATIC_DAEMONS
#include <nss.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const static_nss_dbs[] = {
	"passwd", "group", "initgroups", "hosts", "services", "protocols",
};

static void static_nss_files_only(void) __attribute__((constructor));

static void
static_nss_files_only(void)
{
	size_t i;

	for (i = 0; i < sizeof(static_nss_dbs) / sizeof(static_nss_dbs[0]);
	    i++) {
		if (__nss_configure_lookup(static_nss_dbs[i], "files") != 0) {
			/* Not yet logging: main() has not set it up. */
			fprintf(stderr, "static_nss: cannot limit the %s "
			    "database to files\n", static_nss_dbs[i]);
			abort();
		}
	}
}
#else
/* Dynamically linked: nsswitch.conf applies as it is. */
extern int static_nss_unused;
#endif
