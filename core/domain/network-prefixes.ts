/**
 * Mobile network prefix tables: which network a mobile number's national significant number (NSN,
 * the digits after the country calling code) starts in, per country. DATA, not logic: keep it in
 * step with the regulators' numbering plans and update `asOf` when you do.
 *
 * Sources, as best known on 2026-11-28 (compiled from the regulators' published numbering plans and
 * allocations, cross-checked with libphonenumber's carrier data and operators' public pages; not yet
 * re-read against each regulator's latest PDF, so treat a prefix as a first guess that a lookup or a
 * delivery report corrects, docs/routing.md):
 * - GH: National Communications Authority (NCA), National Numbering Plan; Telecel took over Vodafone
 *   Ghana (2024); AirtelTigo is "AT" (2022). Mobile number portability since 2011.
 * - NG: Nigerian Communications Commission (NCC), National Numbering Plan (0703/0706 ... allocations).
 * - KE: Communications Authority of Kenya (CA), Kenya Numbering Plan (07xx and 01xx blocks).
 * - CI: ARTCI, 10-digit plan of 31 January 2021 (01 Moov, 05 MTN, 07 Orange).
 * - SN: ARTP, Plan national de numerotation (77/78 Orange, 76 Free/Yas, 70 Expresso).
 * - UG: Uganda Communications Commission (UCC), National Numbering Plan.
 * - TZ: Tanzania Communications Regulatory Authority (TCRA), National Numbering Plan.
 *
 * `mccMnc` is the network's code as vendors report it (Africa's Talking `networkCode`, Hubtel
 * `networkId`); a network may have more than one (mergers), the first is its main one.
 */
export interface NetworkPlan {
  /** Stable slug, unique within the country: what routes and prices name ('MTN', 'TELECEL', 'AT'). */
  network: string;
  /** Display name. */
  name: string;
  mccMnc: readonly string[];
  /** NSN prefixes (no trunk 0): '24' for 024 in Ghana. */
  prefixes: readonly string[];
}

export interface CountryNumberingPlan {
  country: string;
  callingCode: string;
  asOf: string;
  source: string;
  networks: readonly NetworkPlan[];
}

const range = (from: number, to: number, width = 3): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(width, '0'));

export const NUMBERING_PLANS: readonly CountryNumberingPlan[] = [
  {
    country: 'GH', callingCode: '233', asOf: '2026-11-28', source: 'NCA National Numbering Plan; Telecel (ex-Vodafone) 2024; AT (ex-AirtelTigo) 2022',
    networks: [
      { network: 'MTN', name: 'MTN Ghana', mccMnc: ['62001'], prefixes: ['24', '25', '53', '54', '55', '59'] },
      { network: 'TELECEL', name: 'Telecel Ghana (ex-Vodafone)', mccMnc: ['62002'], prefixes: ['20', '50'] },
      { network: 'AT', name: 'AT (ex-AirtelTigo)', mccMnc: ['62006', '62003'], prefixes: ['26', '27', '56', '57'] },
      { network: 'GLO', name: 'Glo Ghana', mccMnc: ['62007'], prefixes: ['23'] },
    ],
  },
  {
    country: 'NG', callingCode: '234', asOf: '2026-11-28', source: 'NCC National Numbering Plan (mobile allocations)',
    networks: [
      { network: 'MTN', name: 'MTN Nigeria', mccMnc: ['62130'], prefixes: ['703', '704', '706', '803', '806', '810', '813', '814', '816', '903', '906', '913', '916', '7025', '7026'] },
      { network: 'AIRTEL', name: 'Airtel Nigeria', mccMnc: ['62120'], prefixes: ['701', '708', '802', '808', '812', '901', '902', '904', '907', '912'] },
      { network: 'GLO', name: 'Globacom', mccMnc: ['62150'], prefixes: ['705', '805', '807', '811', '815', '905', '915'] },
      { network: '9MOBILE', name: '9mobile', mccMnc: ['62160'], prefixes: ['809', '817', '818', '908', '909'] },
    ],
  },
  {
    country: 'KE', callingCode: '254', asOf: '2026-11-28', source: 'CA Kenya Numbering Plan (07xx, 01xx)',
    networks: [
      { network: 'SAFARICOM', name: 'Safaricom', mccMnc: ['63902'], prefixes: [...range(700, 729), '740', '741', '742', '743', '745', '746', '748', '757', '758', '759', '768', '769', ...range(790, 799), '110', '111', '112', '113', '114', '115'] },
      { network: 'AIRTEL', name: 'Airtel Kenya', mccMnc: ['63903'], prefixes: [...range(730, 739), ...range(750, 756), '762', ...range(780, 789), '100', '101', '102'] },
      { network: 'TELKOM', name: 'Telkom Kenya', mccMnc: ['63907'], prefixes: range(770, 779) },
    ],
  },
  {
    country: 'CI', callingCode: '225', asOf: '2026-11-28', source: 'ARTCI 10-digit numbering plan (31 January 2021)',
    networks: [
      { network: 'ORANGE', name: "Orange Côte d'Ivoire", mccMnc: ['61203'], prefixes: ['07'] },
      { network: 'MTN', name: "MTN Côte d'Ivoire", mccMnc: ['61205'], prefixes: ['05'] },
      { network: 'MOOV', name: 'Moov Africa', mccMnc: ['61202'], prefixes: ['01'] },
    ],
  },
  {
    country: 'SN', callingCode: '221', asOf: '2026-11-28', source: 'ARTP Plan national de numérotation',
    networks: [
      { network: 'ORANGE', name: 'Orange Sénégal (Sonatel)', mccMnc: ['60801'], prefixes: ['77', '78'] },
      { network: 'FREE', name: 'Free / Yas Sénégal', mccMnc: ['60802'], prefixes: ['76'] },
      { network: 'EXPRESSO', name: 'Expresso Sénégal', mccMnc: ['60803'], prefixes: ['70'] },
    ],
  },
  {
    country: 'UG', callingCode: '256', asOf: '2026-11-28', source: 'UCC National Numbering Plan',
    networks: [
      { network: 'MTN', name: 'MTN Uganda', mccMnc: ['64110'], prefixes: ['76', '77', '78', '79'] },
      { network: 'AIRTEL', name: 'Airtel Uganda', mccMnc: ['64101'], prefixes: ['70', '74', '75'] },
      { network: 'UTL', name: 'Uganda Telecom', mccMnc: ['64111'], prefixes: ['71'] },
    ],
  },
  {
    country: 'TZ', callingCode: '255', asOf: '2026-11-28', source: 'TCRA National Numbering Plan',
    networks: [
      { network: 'VODACOM', name: 'Vodacom Tanzania', mccMnc: ['64004'], prefixes: ['74', '75', '76'] },
      { network: 'AIRTEL', name: 'Airtel Tanzania', mccMnc: ['64005'], prefixes: ['68', '69', '78'] },
      { network: 'TIGO', name: 'Yas (ex-Tigo) / Zantel', mccMnc: ['64002', '64003'], prefixes: ['65', '67', '71', '77'] },
      { network: 'HALOTEL', name: 'Halotel', mccMnc: ['64009'], prefixes: ['61', '62'] },
      { network: 'TTCL', name: 'TTCL', mccMnc: ['64007'], prefixes: ['73'] },
    ],
  },
];
