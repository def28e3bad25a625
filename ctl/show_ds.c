/*
 * show_ds.c - what `ptpctl datasets` and `ptpctl set` print: the
 * datasets of IEEE 1588-2019 clause 8 as aligned rows or JSON members
 * (show.c: the shared formatters).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "ctl.h"
#include "show.h"

/*
 * One row of a dataset: either a JSON member or an aligned "name value"
 * line.  Keeps each dataset's fields in one list for both outputs.
 */
struct ctl_row {
	struct ctl_json	*j;
	int		 json;
};

static void
row_uint(struct ctl_row *r, const char *k, uint64_t v)
{
	if (r->json)
		ctl_json_uint(r->j, k, v);
	else
		printf("  %-44s %" PRIu64 "\n", k, v);
}

static void
row_int(struct ctl_row *r, const char *k, int64_t v)
{
	if (r->json)
		ctl_json_int(r->j, k, v);
	else
		printf("  %-44s %" PRId64 "\n", k, v);
}

static void
row_bool(struct ctl_row *r, const char *k, int v)
{
	if (r->json)
		ctl_json_bool(r->j, k, v);
	else
		printf("  %-44s %s\n", k, v ? "true" : "false");
}

static void
row_str(struct ctl_row *r, const char *k, const char *v)
{
	if (r->json)
		ctl_json_str(r->j, k, v);
	else
		printf("  %-44s %s\n", k, v != NULL ? v : "");
}

static void
row_identity(struct ctl_row *r, const char *k, const ProtobufCBinaryData *id)
{
	char buf[32];

	if (r->json) {
		ctl_json_identity(r->j, k, id);
		return;
	}
	ctl_fmt_identity(buf, sizeof(buf), id);
	row_str(r, k, buf);
}

static void
row_port_identity(struct ctl_row *r, const char *k,
    const Ptpsep__PortIdentity *p)
{
	char buf[48];

	if (r->json) {
		ctl_json_port_identity(r->j, k, p);
		return;
	}
	ctl_fmt_port_identity(buf, sizeof(buf), p);
	row_str(r, k, buf);
}

static void
row_quality(struct ctl_row *r, const char *prefix,
    const Ptpsep__ClockQuality *q)
{
	char k[64];

	snprintf(k, sizeof(k), "%sclock_class", prefix);
	row_uint(r, k, q ? q->clock_class : 0);
	snprintf(k, sizeof(k), "%sclock_accuracy", prefix);
	row_uint(r, k, q ? q->clock_accuracy : 0);
	snprintf(k, sizeof(k), "%soffset_scaled_log_variance", prefix);
	row_uint(r, k, q ? q->offset_scaled_log_variance : 0);
}

static void
ctl_show_default_ds(struct ctl_row *r, const Ptpsep__Ctl__DefaultDS *d)
{
	row_identity(r, "clock_identity", &d->clock_identity);
	row_uint(r, "number_ports", d->number_ports);
	row_quality(r, "", d->clock_quality);
	row_uint(r, "priority1", d->priority1);
	row_uint(r, "priority2", d->priority2);
	row_uint(r, "domain_number", d->domain_number);
	row_bool(r, "slave_only", d->slave_only);
	row_bool(r, "two_step_flag", d->two_step_flag);
	row_uint(r, "sdo_id", d->sdo_id);
}

void
ctl_show_dataset(struct ctl_json *j, const char *key,
    const Ptpsep__Ctl__Dataset *d, int json)
{
	struct ctl_row r = { j, json };
	char st[32], nbuf[32];
	const Ptpsep__Ctl__CurrentDS *c;
	const Ptpsep__Ctl__ParentDS *p;
	const Ptpsep__Ctl__TimePropertiesDS *t;
	const Ptpsep__Ctl__PortDS *pd;
	static const char *const titles[] = {
		"", "defaultDS", "currentDS", "parentDS", "timePropertiesDS",
		"portDS",
	};

	if (json)
		ctl_json_obj(j, key);
	else if ((unsigned)d->ds_case < sizeof(titles) / sizeof(titles[0]))
		printf("%s\n", titles[d->ds_case]);
	switch (d->ds_case) {
	case PTPSEP__CTL__DATASET__DS_DEFAULT_DS:
		ctl_show_default_ds(&r, d->default_ds);
		break;
	case PTPSEP__CTL__DATASET__DS_CURRENT_DS:
		c = d->current_ds;
		row_uint(&r, "steps_removed", c->steps_removed);
		row_int(&r, "offset_from_master_ns", c->offset_from_master_ns);
		row_int(&r, "mean_delay_ns", c->mean_delay_ns);
		break;
	case PTPSEP__CTL__DATASET__DS_PARENT_DS:
		p = d->parent_ds;
		row_port_identity(&r, "parent_port_identity",
		    p->parent_port_identity);
		row_bool(&r, "parent_stats", p->parent_stats);
		row_uint(&r, "observed_parent_offset_scaled_log_variance",
		    p->observed_parent_offset_scaled_log_variance);
		row_int(&r, "observed_parent_clock_phase_change_rate",
		    p->observed_parent_clock_phase_change_rate);
		row_identity(&r, "grandmaster_identity",
		    &p->grandmaster_identity);
		row_quality(&r, "grandmaster_", p->grandmaster_clock_quality);
		row_uint(&r, "grandmaster_priority1", p->grandmaster_priority1);
		row_uint(&r, "grandmaster_priority2", p->grandmaster_priority2);
		break;
	case PTPSEP__CTL__DATASET__DS_TIME_PROPERTIES_DS:
		t = d->time_properties_ds;
		row_int(&r, "current_utc_offset", t->current_utc_offset);
		row_bool(&r, "current_utc_offset_valid",
		    t->current_utc_offset_valid);
		row_bool(&r, "leap59", t->leap59);
		row_bool(&r, "leap61", t->leap61);
		row_bool(&r, "time_traceable", t->time_traceable);
		row_bool(&r, "frequency_traceable", t->frequency_traceable);
		row_bool(&r, "ptp_timescale", t->ptp_timescale);
		row_uint(&r, "time_source", t->time_source);
		break;
	case PTPSEP__CTL__DATASET__DS_PORT_DS:
		pd = d->port_ds;
		row_port_identity(&r, "port_identity", pd->port_identity);
		row_str(&r, "port_state", ctl_port_state_name(pd->port_state,
		    st, sizeof(st)));
		row_int(&r, "log_min_delay_req_interval",
		    pd->log_min_delay_req_interval);
		row_int(&r, "mean_link_delay_ns", pd->mean_link_delay_ns);
		row_int(&r, "log_announce_interval", pd->log_announce_interval);
		row_uint(&r, "announce_receipt_timeout",
		    pd->announce_receipt_timeout);
		row_int(&r, "log_sync_interval", pd->log_sync_interval);
		row_str(&r, "delay_mechanism", ENAME(
		    ptpsep__ctl__delay_mechanism__descriptor,
		    pd->delay_mechanism, "DELAY_MECHANISM_"));
		row_int(&r, "log_min_pdelay_req_interval",
		    pd->log_min_pdelay_req_interval);
		row_uint(&r, "version_number", pd->version_number);
		row_uint(&r, "minor_version_number", pd->minor_version_number);
		row_int(&r, "delay_asymmetry_ns", pd->delay_asymmetry_ns);
		break;
	default:
		break;
	}
	if (json)
		ctl_json_end_obj(j);
}

void
ctl_show_default(struct ctl_json *j, const Ptpsep__Ctl__DefaultDS *d,
    int json)
{
	struct ctl_row r = { j, json };

	if (json)
		ctl_json_obj(j, "default_ds");
	else
		printf("defaultDS\n");
	ctl_show_default_ds(&r, d);
	if (json)
		ctl_json_end_obj(j);
}
