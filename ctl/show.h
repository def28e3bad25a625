/*
 * show.h - the formatters ctl/show*.c share (not the rest of ptpctl).
 */
#ifndef PTPSEP_CTL_SHOW_H
#define PTPSEP_CTL_SHOW_H

#include "ctl.h"

/* An enum value's name in lower case without prefix, into the caller's
 * char nbuf[]. */
#define ENAME(desc, v, prefix) \
	ctl_enum_name(&(desc), (int)(v), (prefix), 0, nbuf, sizeof(nbuf))

/* "001122.fffe.334455-1"; "" for NULL. */
void	ctl_fmt_port_identity(char *buf, size_t len,
	    const Ptpsep__PortIdentity *p);
/* As a string member, null when empty / NULL. */
void	ctl_json_identity(struct ctl_json *j, const char *key,
	    const ProtobufCBinaryData *id);
void	ctl_json_port_identity(struct ctl_json *j, const char *key,
	    const Ptpsep__PortIdentity *p);

#endif /* PTPSEP_CTL_SHOW_H */
