/** Client credentials (clientId and clientSecret). */
export const en = {
  newCredential: 'New credential: copy the secret now',
  secretShownOnce: 'The secret is shown only once. We keep only its hash.',
  clientCredentials: 'Client credentials',
  createCredential: 'Create credential',
  scopes: 'Scopes',
  credentialRevoked: 'Revoked',
  credentialActive: 'Active',
  revokeCredentialConfirm: 'Revoke this credential?',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  newCredential: 'Nova credencial: copie o segredo agora',
  secretShownOnce: 'O segredo aparece só uma vez. Guardamos apenas o hash.',
  clientCredentials: 'Credenciais de cliente',
  createCredential: 'Criar credencial',
  scopes: 'Escopos',
  credentialRevoked: 'Revogada',
  credentialActive: 'Ativa',
  revokeCredentialConfirm: 'Revogar esta credencial?',
};
