/**
 * Refusals of the API's services shown on a portal page (issue 30 item 1). The services answer in
 * the spec's English; on a Portuguese page a field check is said here, naming the field, and a
 * business refusal in the error catalogue's Portuguese text.
 */
export const en = {
  fieldRefused: '{field}: the value given is not accepted. Check it and try again.',
  formRefused: 'Some of the data given is not accepted. Check the form and try again.',
  fieldUrl: 'URL',
  fieldName: 'Name',
  fieldDocument: 'CPF / CNPJ',
  fieldHeaders: 'Custom headers',
  fieldCertificate: 'Certificate',
  fieldLimits: 'Limits',
  fieldFees: 'Fees',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  fieldRefused: '{field}: o valor informado não é aceito. Verifique e tente de novo.',
  formRefused: 'Alguns dados informados não são aceitos. Verifique o formulário e tente de novo.',
  fieldUrl: 'URL',
  fieldName: 'Nome',
  fieldDocument: 'CPF / CNPJ',
  fieldHeaders: 'Cabeçalhos',
  fieldCertificate: 'Certificado',
  fieldLimits: 'Limites',
  fieldFees: 'Tarifas',
};
