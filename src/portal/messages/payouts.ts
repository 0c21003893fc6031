export const en = {} as const;

export const ptBR: Record<keyof typeof en, string> = {};
