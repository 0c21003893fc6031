/** The portal's two languages: pt-BR (default) and English. */
export type Lang = 'pt-BR' | 'en';
export const LANG_COOKIE = 'pix_portal_lang';

const en = {
  appName: 'PIX Account',
  email: 'Email',
  password: 'Password',
  signIn: 'Sign in',
  signOut: 'Sign out',
  signInTitle: 'Sign in to your account',
  signInLead: 'Operators and account members sign in here.',
  badCredentials: 'Email or password is incorrect.',
  tooManyAttempts: 'Too many failed attempts. Try again in {minutes} min.',
  sessionExpired: 'Your session ended. Sign in again.',
  setPassword: 'Set password',
  invitationTitle: 'Welcome: choose your password',
  invitationLead: 'You were invited to the account of {account}. Your password needs at least 12 characters.',
  invitationInvalid: 'This invitation link is no longer valid. Ask an operator for a new one.',
  passwordTooShort: 'The password needs at least 12 characters.',
  passwordSet: 'Password set. Sign in with your email and new password.',
  home: 'Home',
  transactions: 'Transactions',
  charges: 'Charges',
  payouts: 'Payouts',
  webhooks: 'Webhooks',
  credentials: 'Credentials',
  certificates: 'Certificates',
  med: 'MED',
  accounts: 'Accounts',
  auditLog: 'Audit log',
  system: 'System',
  language: 'Language',
  mainNav: 'Main',
  available: 'Available',
  blocked: 'Blocked',
  total: 'Total',
  balance: 'Balance',
  latestTransactions: 'Latest transactions',
  seeAll: 'See all',
  noTransactions: 'No transactions in this period.',
  date: 'Date',
  type: 'Type',
  status: 'Status',
  amount: 'Amount',
  fee: 'Fee',
  net: 'Net amount',
  counterpart: 'Counterpart',
  endToEndId: 'End-to-end id',
  from: 'From',
  to: 'To',
  any: 'Any',
  filter: 'Filter',
  previous: 'Previous',
  next: 'Next',
  page: 'Page {page} of {pages}',
  pageOf: 'Page {page}',
  transaction: 'Transaction',
  document: 'Document',
  bank: 'Bank',
  description: 'Description',
  createdAt: 'Created',
  processedAt: 'Processed',
  refunds: 'Refunds',
  deliveries: 'Webhook deliveries',
  noneYet: 'None yet.',
  PAYMENT: 'Pix in',
  WITHDRAW: 'Pix out',
  REFUND_IN: 'Refund in',
  REFUND_OUT: 'Refund out',
  PENDING: 'Pending',
  CONFIRMED: 'Confirmed',
  ERROR: 'Failed',
  notFoundTitle: 'Page not found',
  notFoundLead: 'There is nothing here, or it belongs to another account.',
  forbiddenTitle: 'Request refused',
  forbiddenLead: 'The form expired or did not come from this site. Reload the page and try again.',
  errorTitle: 'Something went wrong',
  errorLead: 'Try again in a moment. Reference: {id}',
  account: 'Account',
  pixKey: 'PIX key',
  signedInAs: 'Signed in as {email}',
  skipToContent: 'Skip to content',
  sandbox: 'Sandbox',
  comingSoon: 'Not available in the portal yet: use the API.',
} as const;

export type MessageKey = keyof typeof en;

const pt: Record<MessageKey, string> = {
  appName: 'Conta PIX',
  email: 'E-mail',
  password: 'Senha',
  signIn: 'Entrar',
  signOut: 'Sair',
  signInTitle: 'Entre na sua conta',
  signInLead: 'Operadores e membros de contas entram por aqui.',
  badCredentials: 'E-mail ou senha incorretos.',
  tooManyAttempts: 'Muitas tentativas sem sucesso. Tente de novo em {minutes} min.',
  sessionExpired: 'Sua sessão terminou. Entre de novo.',
  setPassword: 'Definir senha',
  invitationTitle: 'Boas-vindas: escolha sua senha',
  invitationLead: 'Você foi convidado para a conta de {account}. A senha precisa de pelo menos 12 caracteres.',
  invitationInvalid: 'Este convite não vale mais. Peça um novo a um operador.',
  passwordTooShort: 'A senha precisa de pelo menos 12 caracteres.',
  passwordSet: 'Senha definida. Entre com seu e-mail e a nova senha.',
  home: 'Início',
  transactions: 'Transações',
  charges: 'Cobranças',
  payouts: 'Pagamentos',
  webhooks: 'Webhooks',
  credentials: 'Credenciais',
  certificates: 'Certificados',
  med: 'MED',
  accounts: 'Contas',
  auditLog: 'Auditoria',
  system: 'Sistema',
  language: 'Idioma',
  mainNav: 'Principal',
  available: 'Disponível',
  blocked: 'Bloqueado',
  total: 'Total',
  balance: 'Saldo',
  latestTransactions: 'Últimas transações',
  seeAll: 'Ver todas',
  noTransactions: 'Nenhuma transação neste período.',
  date: 'Data',
  type: 'Tipo',
  status: 'Situação',
  amount: 'Valor',
  fee: 'Tarifa',
  net: 'Valor líquido',
  counterpart: 'Contraparte',
  endToEndId: 'Identificador fim a fim',
  from: 'De',
  to: 'Até',
  any: 'Todos',
  filter: 'Filtrar',
  previous: 'Anterior',
  next: 'Próxima',
  page: 'Página {page} de {pages}',
  pageOf: 'Página {page}',
  transaction: 'Transação',
  document: 'Documento',
  bank: 'Banco',
  description: 'Descrição',
  createdAt: 'Criada',
  processedAt: 'Processada',
  refunds: 'Devoluções',
  deliveries: 'Entregas de webhook',
  noneYet: 'Nada ainda.',
  PAYMENT: 'Pix recebido',
  WITHDRAW: 'Pix enviado',
  REFUND_IN: 'Devolução enviada',
  REFUND_OUT: 'Devolução recebida',
  PENDING: 'Pendente',
  CONFIRMED: 'Confirmada',
  ERROR: 'Falhou',
  notFoundTitle: 'Página não encontrada',
  notFoundLead: 'Não há nada aqui, ou pertence a outra conta.',
  forbiddenTitle: 'Pedido recusado',
  forbiddenLead: 'O formulário expirou ou não veio deste site. Recarregue a página e tente de novo.',
  errorTitle: 'Algo deu errado',
  errorLead: 'Tente de novo em instantes. Referência: {id}',
  account: 'Conta',
  pixKey: 'Chave PIX',
  signedInAs: 'Conectado como {email}',
  skipToContent: 'Pular para o conteúdo',
  sandbox: 'Sandbox',
  comingSoon: 'Ainda não disponível no portal: use a API.',
};

const tables: Record<Lang, Record<MessageKey, string>> = { en, 'pt-BR': pt };

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function translator(lang: Lang): Translate {
  const table = tables[lang];
  return (key, vars) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars?.[name] ?? `{${name}}`));
}

/** The remembered choice wins; otherwise the first of Accept-Language's languages we have, by q. */
export function chooseLang(cookie: string | undefined, acceptLanguage: string | undefined): Lang {
  if (cookie === 'en' || cookie === 'pt-BR') return cookie;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { tag: tag.toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
    if (tag === 'pt' || tag.startsWith('pt-')) return 'pt-BR';
  }
  return 'pt-BR';
}
