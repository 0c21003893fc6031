/** The Events page (issue 29): the account's events, each payload and attempt, and "replay failed since". */
export const en = {
  events: 'Events',
  eventsLead: 'Every event of your account as its webhooks carried it, newest first, with each delivery attempt. The same list is at GET /api/events, live at GET /api/events/stream.',
  eventsNone: 'No events yet.',
  payload: 'Payload',
  attemptsCount: 'Attempts ({count})',
  replayFailedSince: 'Replay failed since',
  replayHint: 'Queues again every delivery that failed for good since this time (São Paulo time), to your active URLs, signed as usual.',
  replayButton: 'Replay failed deliveries',
  replayQueued: '{count} deliveries queued again.',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  events: 'Eventos',
  eventsLead: 'Todos os eventos da sua conta como os webhooks os levaram, do mais recente ao mais antigo, com cada tentativa de entrega. A mesma lista está em GET /api/events, ao vivo em GET /api/events/stream.',
  eventsNone: 'Nenhum evento ainda.',
  payload: 'Conteúdo',
  attemptsCount: 'Tentativas ({count})',
  replayFailedSince: 'Reenviar falhas desde',
  replayHint: 'Enfileira de novo toda entrega que falhou de vez desde este momento (horário de São Paulo), para suas URLs ativas, assinada como sempre.',
  replayButton: 'Reenviar entregas com falha',
  replayQueued: '{count} entregas enfileiradas de novo.',
} as const;
