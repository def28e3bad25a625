/*
 * drv_answers.h - what real drivers answer to ETHTOOL_GET_TS_INFO (and
 * how they meet ptpsep's SIOCSHWTSTAMP request), for the unit tests of
 * netd/phc.c and netd/tstamp.c through the fake seam (drv_fake.h).
 *
 * Read from each driver's get_ts_info in the Linux source of the 6.1 era
 * (file and function named per entry; values only, no code), except
 * veth/lo, measured on this machine (Linux 6.18) with ETHTOOL_GET_TS_INFO
 * in a network namespace: tests/integration/phc_auto.sh sees the same.
 * phc_index is per machine: the values here are examples.  Since Linux
 * 6.11 the core, not the driver, adds the software RX bits; ptpsep never
 * needs them for hardware time stamps.
 */
#ifndef PTPSEP_TESTS_DRV_ANSWERS_H
#define PTPSEP_TESTS_DRV_ANSWERS_H

#include <errno.h>
#include <linux/net_tstamp.h>

#include "drv_fake.h"

#define DA_SOF_SW	(SOF_TIMESTAMPING_TX_SOFTWARE | \
			 SOF_TIMESTAMPING_RX_SOFTWARE | \
			 SOF_TIMESTAMPING_SOFTWARE)		/* 0x1a */
#define DA_SOF_HW	(SOF_TIMESTAMPING_TX_HARDWARE | \
			 SOF_TIMESTAMPING_RX_HARDWARE | \
			 SOF_TIMESTAMPING_RAW_HARDWARE)		/* 0x45 */
#define DA_TX_OFF_ON	((1u << HWTSTAMP_TX_OFF) | (1u << HWTSTAMP_TX_ON))
#define DA_RX(f)	(1u << HWTSTAMP_FILTER_ ## f)

/*
 * igc (Intel I225/I226): drivers/net/ethernet/intel/igc/igc_ethtool.c,
 * igc_ethtool_get_ts_info(): software and hardware bits, tx OFF|ON,
 * rx NONE|ALL; -EOPNOTSUPP for a MAC other than i225.  SIOCSHWTSTAMP
 * (igc_ptp.c, igc_ptp_set_timestamp_mode()): every PTP filter becomes
 * ALL, the only one it offers.  PTP_CLOCK_GETCAPS: igc_ptp.c
 * igc_ptp_init() sets max_adj 62499999 ppb.
 */
#define DA_IGC { .ifname = "enp1s0", .driver = "igc", \
	.ts = { .so_timestamping = DA_SOF_SW | DA_SOF_HW, .phc_index = 0, \
	    .tx_types = DA_TX_OFF_ON, .rx_filters = DA_RX(NONE) | DA_RX(ALL) }, \
	.hwts_rx = HWTSTAMP_FILTER_ALL }
#define DA_IGC_MAX_ADJ	62499999
#define DA_IGC_OTHER_MAC { .ifname = "enp1s0", .driver = "igc", \
	.ts_err = -EOPNOTSUPP }

/*
 * e1000e (Intel 82574, PCH): drivers/net/ethernet/intel/e1000e/ethtool.c,
 * e1000e_get_ts_info(): ethtool_op_get_ts_info()'s software bits, then
 * with FLAG_HAS_HW_TIMESTAMP the hardware ones, tx OFF|ON, rx NONE,
 * V1_L4_SYNC, V1_L4_DELAY_REQ, V2_L4_SYNC, V2_L4_DELAY_REQ, V2_L2_SYNC,
 * V2_L2_DELAY_REQ, V2_EVENT, V2_SYNC, V2_DELAY_REQ, ALL.  SIOCSHWTSTAMP
 * (netdev.c, e1000e_config_hwtstamp()): the V2 event filters become
 * PTP_V2_EVENT.  Without FLAG_HAS_HW_TIMESTAMP: software only, no PHC.
 */
#define DA_E1000E { .ifname = "eno1", .driver = "e1000e", \
	.ts = { .so_timestamping = DA_SOF_SW | DA_SOF_HW, .phc_index = 1, \
	    .tx_types = DA_TX_OFF_ON, .rx_filters = DA_RX(NONE) | \
	    DA_RX(PTP_V1_L4_SYNC) | DA_RX(PTP_V1_L4_DELAY_REQ) | \
	    DA_RX(PTP_V2_L4_SYNC) | DA_RX(PTP_V2_L4_DELAY_REQ) | \
	    DA_RX(PTP_V2_L2_SYNC) | DA_RX(PTP_V2_L2_DELAY_REQ) | \
	    DA_RX(PTP_V2_EVENT) | DA_RX(PTP_V2_SYNC) | \
	    DA_RX(PTP_V2_DELAY_REQ) | DA_RX(ALL) }, \
	.hwts_rx = HWTSTAMP_FILTER_PTP_V2_EVENT }
#define DA_E1000E_NO_HW { .ifname = "eno1", .driver = "e1000e", \
	.ts = { .so_timestamping = DA_SOF_SW, .phc_index = -1 }, \
	.hwts_err = -ERANGE }

/*
 * mlx5 (NVIDIA ConnectX-4 and later):
 * drivers/net/ethernet/mellanox/mlx5/core/en_ethtool.c,
 * mlx5e_ethtool_get_ts_info(): the PHC index of the function's clock,
 * so_timestamping TX_HARDWARE|RX_HARDWARE|RAW_HARDWARE only (assigned,
 * no software bits in that era), tx OFF|ON, rx NONE|ALL.  SIOCSHWTSTAMP:
 * ALL, the only filter it offers.
 */
#define DA_MLX5 { .ifname = "enp65s0f0np0", .driver = "mlx5_core", \
	.ts = { .so_timestamping = DA_SOF_HW, .phc_index = 2, \
	    .tx_types = DA_TX_OFF_ON, .rx_filters = DA_RX(NONE) | DA_RX(ALL) }, \
	.hwts_rx = HWTSTAMP_FILTER_ALL }
/* Its second port: the same NIC, the same PHC. */
#define DA_MLX5_P1 { .ifname = "enp65s0f1np1", .driver = "mlx5_core", \
	.ts = { .so_timestamping = DA_SOF_HW, .phc_index = 2, \
	    .tx_types = DA_TX_OFF_ON, .rx_filters = DA_RX(NONE) | DA_RX(ALL) }, \
	.hwts_rx = HWTSTAMP_FILTER_ALL }

/*
 * ice (Intel E810): drivers/net/ethernet/intel/ice/ice_ethtool.c,
 * ice_get_ts_info(): ethtool_op_get_ts_info() until PTP is ready; then
 * software and hardware bits, phc_index ice_ptp_clock_index(), tx OFF|ON,
 * rx NONE|ALL.  SIOCSHWTSTAMP: ALL.
 */
#define DA_ICE { .ifname = "ens785f0", .driver = "ice", \
	.ts = { .so_timestamping = DA_SOF_SW | DA_SOF_HW, .phc_index = 3, \
	    .tx_types = DA_TX_OFF_ON, .rx_filters = DA_RX(NONE) | DA_RX(ALL) }, \
	.hwts_rx = HWTSTAMP_FILTER_ALL }

/*
 * Drivers that insert the time themselves (one-step).
 * ocelot/felix (Microchip VSC7514, NXP LS1028A switch ports):
 * drivers/net/ethernet/mscc/ocelot_ptp.c, ocelot_get_ts_info(): software
 * and hardware bits, tx OFF|ON|ONESTEP_SYNC (0x7), rx NONE|PTP_V2_EVENT|
 * PTP_V2_L2_EVENT|PTP_V2_L4_EVENT.  SIOCSHWTSTAMP (ocelot_hwstamp_set()):
 * the V2 event filters become PTP_V2_EVENT.
 */
#define DA_OCELOT { .ifname = "swp0", .driver = "felix", \
	.ts = { .so_timestamping = DA_SOF_SW | DA_SOF_HW, .phc_index = 4, \
	    .tx_types = DA_TX_OFF_ON | (1u << HWTSTAMP_TX_ONESTEP_SYNC), \
	    .rx_filters = DA_RX(NONE) | DA_RX(PTP_V2_EVENT) | \
	    DA_RX(PTP_V2_L2_EVENT) | DA_RX(PTP_V2_L4_EVENT) }, \
	.hwts_rx = HWTSTAMP_FILTER_PTP_V2_EVENT }
/*
 * Broadcom BCM54210PE PHY: drivers/net/phy/bcm-phy-ptp.c,
 * bcm_ptp_ts_info(): hardware bits only, tx OFF|ON|ONESTEP_SYNC|
 * ONESTEP_P2P (0xf), rx NONE|PTP_V2_EVENT.  SIOCSHWTSTAMP
 * (bcm_ptp_hwtstamp()): every V2 event filter becomes PTP_V2_EVENT.
 */
#define DA_BCM_PHY { .ifname = "eth0", .driver = "bcmgenet", \
	.ts = { .so_timestamping = DA_SOF_HW, .phc_index = 5, \
	    .tx_types = DA_TX_OFF_ON | (1u << HWTSTAMP_TX_ONESTEP_SYNC) | \
	    (1u << HWTSTAMP_TX_ONESTEP_P2P), \
	    .rx_filters = DA_RX(NONE) | DA_RX(PTP_V2_EVENT) }, \
	.hwts_rx = HWTSTAMP_FILTER_PTP_V2_EVENT }

/*
 * veth and lo, measured here: so_timestamping 0x1a (TX_SOFTWARE,
 * RX_SOFTWARE, SOFTWARE), phc_index -1, tx_types 0, rx_filters 0;
 * SIOCSHWTSTAMP and SIOCGHWTSTAMP: EOPNOTSUPP.
 */
#define DA_VETH { .ifname = "veth0", .driver = "veth", \
	.ts = { .so_timestamping = DA_SOF_SW, .phc_index = -1 }, \
	.hwts_err = -EOPNOTSUPP }
#define DA_LO { .ifname = "lo", .driver = "?", \
	.ts = { .so_timestamping = DA_SOF_SW, .phc_index = -1 }, \
	.hwts_err = -EOPNOTSUPP }

#endif /* PTPSEP_TESTS_DRV_ANSWERS_H */
