/*
 * ptp_be.h - big-endian (network order) byte access for the PTP codec.
 *
 * PTP fields sit at odd offsets (a 48-bit seconds field at octet 34, ...), so
 * the codec never casts a buffer to a wider type: every field is read and
 * written one octet at a time.  Internal to lib/ptp_*.c.
 */
#ifndef PTPSEP_PTP_BE_H
#define PTPSEP_PTP_BE_H

#include <stdint.h>

static inline uint16_t
ptp_get_be16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t
ptp_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t
ptp_get_be48(const uint8_t *p)
{
	return (uint64_t)ptp_get_be16(p) << 32 | ptp_get_be32(p + 2);
}

static inline uint64_t
ptp_get_be64(const uint8_t *p)
{
	return (uint64_t)ptp_get_be32(p) << 32 | ptp_get_be32(p + 4);
}

static inline void
ptp_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
ptp_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void
ptp_put_be48(uint8_t *p, uint64_t v)
{
	ptp_put_be16(p, (uint16_t)(v >> 32));
	ptp_put_be32(p + 2, (uint32_t)v);
}

static inline void
ptp_put_be64(uint8_t *p, uint64_t v)
{
	ptp_put_be32(p, (uint32_t)(v >> 32));
	ptp_put_be32(p + 4, (uint32_t)v);
}

#endif /* PTPSEP_PTP_BE_H */
