import { CompactSign } from 'jose';
import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { toDecimalString } from '../../domain/money.ts';
import type { DB } from '../../db/schema.ts';
import type { Devedor } from '../../db/schema/charges.ts';
import { SIGNING_ALG, type SigningKeys } from '../auth/signing-keys.ts';
import { chargesRepo, type ChargeRow } from './charges.repo.ts';

/** The central bank's PixPayload (CobPayload) of a charge, as its location answers it. */
export function cobPayload(charge: ChargeRow, presentedAt: Date) {
  const devedor = charge.devedor as Devedor | null;
  const infoAdicionais = charge.info_adicionais as Array<{ nome: string; valor: string }> | null;
  return {
    txid: charge.txid,
    revisao: charge.revisao,
    calendario: {
      criacao: charge.created_at.toISOString(),
      apresentacao: presentedAt.toISOString(),
      expiracao: charge.expiration_seconds,
    },
    ...(devedor ? { devedor } : {}),
    valor: { original: toDecimalString(charge.amount), modalidadeAlteracao: charge.modalidade_alteracao },
    chave: charge.receiver_key,
    ...(charge.solicitacao_pagador ? { solicitacaoPagador: charge.solicitacao_pagador } : {}),
    ...(infoAdicionais && infoAdicionais.length > 0 ? { infoAdicionais } : {}),
    status: charge.status,
  };
}

/**
 * GET /qr/v2/{locationId}: what a payer's bank reads behind a dynamic BR Code, signed as a compact
 * JWS (ES256) with the service's current signing key, whose public half is in the JWKS.
 */
export function createChargeLocations(deps: { db: Kysely<DB>; clock: Clock; signingKeys: SigningKeys }) {
  async function signedPayload(locationId: string): Promise<string> {
    const charge = /^[0-9a-f]{32}$/.test(locationId) ? await chargesRepo.byLocationId(deps.db, locationId) : undefined;
    // A removed (cancelled or expired) charge no longer has a location.
    if (!charge || charge.status === 'REMOVIDA_PELO_PSP' || charge.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') {
      throw new DomainError('NOT_FOUND', undefined, `Location ${locationId} not found`);
    }
    const payload = cobPayload(charge, deps.clock.now());
    const { kid, key } = await deps.signingKeys.current();
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JOSE' })
      .sign(key);
  }
  return { signedPayload };
}

export type ChargeLocations = ReturnType<typeof createChargeLocations>;
