/** Charges (dynamic PIX QR codes): the list, the form, a charge's page. */
export const en = {
  chargesLead: 'A charge is a dynamic PIX QR code for one amount; your payer scans it or pastes the code.',
  newCharge: 'New charge',
  chargeValue: 'Value (R$)',
  expiresInMinutes: 'Expires in (minutes)',
  createCharge: 'Create charge',
  recentCharges: 'Recent charges',
  chargeValueInvalid: 'value must be an amount in reais with at most 2 decimals, like 1.234,56',
  chargeExpirationInvalid: 'expiration must be a whole number of minutes between 1 and 43200',
  charge: 'Charge',
  qrCode: 'QR code',
  qrCodeAlt: 'PIX QR code for {amount}',
  copyAndPaste: 'PIX copy and paste',
  expires: 'Expires',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  chargesLead: 'Uma cobrança é um QR code PIX dinâmico de um valor; quem paga lê o código ou cola o texto.',
  newCharge: 'Nova cobrança',
  chargeValue: 'Valor (R$)',
  expiresInMinutes: 'Expira em (minutos)',
  createCharge: 'Criar cobrança',
  recentCharges: 'Cobranças recentes',
  chargeValueInvalid: 'valor deve ser um valor em reais com até 2 casas decimais, como 1.234,56',
  chargeExpirationInvalid: 'expiração deve ser um número inteiro de minutos entre 1 e 43200',
  charge: 'Cobrança',
  qrCode: 'QR code',
  qrCodeAlt: 'QR code PIX de {amount}',
  copyAndPaste: 'PIX copia e cola',
  expires: 'Expira',
};
