// QR codes (a collector's sharing page, two-factor set-up): the library loads with the first code
// drawn, not with every process.
export const qrcode = () => import('qrcode').then((m) => m.default);
