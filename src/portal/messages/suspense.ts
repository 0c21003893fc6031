/** Money in suspense (operators). */
export const en = {
  suspenseLead: 'PIX received on the pooled account that named no charge we could credit. Assign each one to the account it belongs to.',
  waitingForOperator: 'Waiting for an operator',
  payer: 'Payer',
  reason: 'Reason',
  assignToAccount: 'Assign to account',
  accountFor: 'Account for {amount} from {payer}',
  assign: 'Assign',
  accountIdInvalid: 'accountId must be an account number',
  assigned: 'Assigned to account #{account} (transaction {transaction}).',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  suspenseLead: 'PIX recebidos na conta do provedor sem cobrança que pudéssemos creditar. Atribua cada um à conta a que pertence.',
  waitingForOperator: 'Aguardando um operador',
  payer: 'Pagador',
  reason: 'Motivo',
  assignToAccount: 'Atribuir à conta',
  accountFor: 'Conta para {amount} de {payer}',
  assign: 'Atribuir',
  accountIdInvalid: 'accountId deve ser o número de uma conta',
  assigned: 'Atribuído à conta #{account} (transação {transaction}).',
};
