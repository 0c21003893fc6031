import type { Kysely, Transaction as Trx } from 'kysely';
import type { ChargeKind, TransactionFamily } from '../../domain/closed-lists.ts';
import type { Clock } from '../../domain/clock.ts';
import { isValidCnpj, isValidCpf } from '../../domain/documents.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import type { Cents } from '../../domain/money.ts';
import { detectDictKey, splitDictKey } from '../../domain/pix-keys.ts';
import { allocateSplits } from '../../domain/splits.ts';
import { accountsRepo, type AccountRow } from '../../db/repos/accounts.repo.ts';
import { transactionsRepo, type NewTransaction, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { Devedor, StoredSplit } from '../../db/schema/charges.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { ChargeOrder, PixNetwork } from '../../network/pix-network.ts';
import type { ScenarioReader } from '../../network/scenario-header.ts';
import { MAX_EXPIRATION_S, MIN_EXPIRATION_S, newLocationId } from './charge-model.ts';
import { chargesRepo, type ChargeRow } from './charges.repo.ts';
import { refundsRepo, type RefundRow } from '../refunds/refunds.repo.ts';
import { CHARGE_JOBS } from './charge-jobs.ts';

export interface CashInInput {
  amount: Cents;
  description: string;
  externalId: string;
  /** Seconds; the route applies the default. */
  expirationTime: number;
  payer: { fullName: string; document: string };
  additionalInfo?: Record<string, string>;
  splits: StoredSplit[];
}

export interface CobInput {
  expiracao: number;
  devedor?: Devedor;
  amount: Cents;
  modalidadeAlteracao: 0 | 1;
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: Array<{ nome: string; valor: string }>;
}

/** A cob as GET /cob shows it: the charge and the PIX received for it, each with its refunds. */
export interface CobReading {
  charge: ChargeRow;
  payments: Array<{ tx: TransactionRow; refunds: Array<{ refund: RefundRow; tx: TransactionRow }> }>;
}

export interface CreatedCharge {
  tx: TransactionRow;
  charge: ChargeRow;
}

/** The PENDING "Pix in" behind a charge (cash-in or cob), until it is paid, expires or is cancelled. */
function pendingChargeTransaction(input: {
  transactionId: string;
  accountId: number;
  origin: ChargeKind;
  family: TransactionFamily;
  externalId: string | null;
  amount: Cents;
  pixKey: string;
  description: string | null;
  metadata: Record<string, string>;
  scenario: string | null;
  now: Date;
}): NewTransaction {
  return {
    transaction_id: input.transactionId,
    account_id: input.accountId,
    kind: 'PAYMENT',
    status: 'PENDING',
    origin: input.origin,
    family: input.family,
    external_id: input.externalId,
    original_amount: input.amount,
    final_amount: input.amount,
    pix_key: input.pixKey,
    description: input.description,
    // The schema types metadata as generated; the column takes JSON text like every jsonb here.
    metadata: JSON.stringify(input.metadata) as never,
    scenario: input.scenario,
    created_at: input.now,
    updated_at: input.now,
  };
}

const isDocument = (d: string) => isValidCpf(d) || isValidCnpj(d);

/** One text per invalid split field, after the schema has checked shapes. */
export function splitProblems(amount: Cents, splits: readonly StoredSplit[]): string[] {
  const problems: string[] = [];
  splits.forEach((split, i) => {
    if (!splitDictKey(split.pixKey, split.pixKeyType)) problems.push(`splits[${i}].pixKey is not a valid ${split.pixKeyType} key`);
    if (!isDocument(split.document)) problems.push(`splits[${i}].document must be a valid CPF or CNPJ, digits only`);
  });
  if (problems.length === 0 && splits.length > 0) {
    const allocation = allocateSplits(amount, splits.map((s) => ({ type: s.type, value: s.value })));
    if ('error' in allocation) problems.push('splits must not add up to more than transaction.value');
  }
  return problems;
}

/**
 * Creating charges: a cash-in (public family) or a cob (compatible family). The charge is first
 * registered with the network (outside any transaction: a network that cannot be reached answers
 * PROVIDER_UNAVAILABLE with nothing stored), then its PENDING PAYMENT transaction, charge row and
 * expiry job are stored in one database transaction. The network's payers pay it through
 * `onChargePaid` notices (charge-payment.ts).
 */
export function createChargeService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  scheduler: Scheduler;
  network: Pick<PixNetwork, 'registerCharge' | 'chargeRules'>;
  /** Reads X-Sandbox-Scenario (the sandbox) or refuses it (production). */
  scenarios: ScenarioReader;
}) {
  const { db, clock, scheduler, network } = deps;

  function checkExpiration(field: string, seconds: number): void {
    if (!Number.isSafeInteger(seconds) || seconds < MIN_EXPIRATION_S || seconds > MAX_EXPIRATION_S) {
      throw new ValidationError([`${field} must be between ${MIN_EXPIRATION_S} and ${MAX_EXPIRATION_S} seconds`]);
    }
    const { provider, minExpirationSeconds } = network.chargeRules;
    if (seconds < minExpirationSeconds) {
      throw new DomainError(
        'PIX_PROVIDER_EXPIRATION_BELOW_MINIMUM',
        { provider, providerMinSeconds: minExpirationSeconds, granularity: 'seconds', userExpirationTime: seconds },
        `${field} must be at least ${minExpirationSeconds} seconds for the payment provider`,
      );
    }
  }

  async function loadAccount(trx: Kysely<DB> | Trx<DB>, accountId: number): Promise<AccountRow> {
    const account = await accountsRepo.byId(trx, accountId);
    if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${accountId} not found`);
    return account;
  }

  /** The network learns of the charge before anything is stored (and never inside a transaction). */
  async function register(order: ChargeOrder): Promise<string> {
    return (await network.registerCharge(order)).pixCode;
  }

  /**
   * A split to a key of the receiving account would pay the account itself (a "Pix out" and a
   * "Pix in" of the same money), which a cash-out to one's own key refuses; the remainder already
   * stays with the account.
   */
  async function ownKeySplits(accountId: number, splits: readonly StoredSplit[]): Promise<string[]> {
    const keys = splits.map((split) => splitDictKey(split.pixKey, split.pixKeyType)?.normalized);
    const owners = await accountsRepo.byKeys(db, [...new Set(keys.filter((k): k is string => k !== undefined))]);
    return keys.flatMap((key, i) =>
      key !== undefined && owners.get(key)?.accountId === accountId
        ? [`splits[${i}].pixKey must not be a key of the receiving account (the remainder already stays with it)`]
        : [],
    );
  }

  async function createCashIn(accountId: number, input: CashInInput, scenarioHeader: string | undefined): Promise<CreatedCharge> {
    const problems: string[] = [];
    if (!isDocument(input.payer.document)) problems.push('payer.document must be a valid CPF (11 digits) or CNPJ (14 characters)');
    problems.push(...splitProblems(input.amount, input.splits));
    if (problems.length === 0) problems.push(...(await ownKeySplits(accountId, input.splits)));
    if (problems.length > 0) throw new ValidationError(problems);
    checkExpiration('transaction.expirationTime', input.expirationTime);
    // Decided before anything is stored: provider-unavailable answers 500 with nothing kept.
    const scenario = deps.scenarios(scenarioHeader, 'cash_in');
    const priced = await accountsRepo.withFee(db, accountId, 'cash_in', input.amount);
    if (!priced) throw new DomainError('NOT_FOUND', undefined, `Account ${accountId} not found`);
    const { account, fee } = priced;
    if (fee >= input.amount) throw new DomainError('PIX_INVALID_AMOUNT', undefined, 'The cash-in fee leaves nothing to credit');
    // A duplicate answers before the network hears of a charge that would never be stored.
    const used = await transactionsRepo.byExternalId(db, accountId, input.externalId);
    if (used) throw new DomainError('PIX_DUPLICATE_EXTERNAL_ID', { externalId: input.externalId, existingTransactionId: used.transaction_id });
    const now = clock.now();
    const transactionId = newUuidV4();
    const locationId = newLocationId();
    const expiresAt = new Date(now.getTime() + input.expirationTime * 1000);
    const pixCode = await register({
      reference: transactionId,
      kind: 'cash_in',
      txid: transactionId.replaceAll('-', ''),
      amount: input.amount,
      amountChangeable: false,
      expiresAt,
      expirationSeconds: input.expirationTime,
      description: input.description,
      receiver: { accountId, key: account.pix_key, name: account.name, document: account.document },
      payer: { name: input.payer.fullName, document: input.payer.document },
      locationId,
      scenario,
    });

    return db.transaction().execute(async (trx) => {
      const { created, row: tx } = await transactionsRepo.insertUnlessExternalIdUsed(
        trx,
        pendingChargeTransaction({
          transactionId,
          accountId,
          origin: 'cash_in',
          family: 'api',
          externalId: input.externalId,
          amount: input.amount,
          pixKey: account.pix_key,
          description: input.description,
          metadata: input.additionalInfo ?? {},
          scenario,
          now,
        }),
      );
      // Lost a race for the externalId: the charge registered above is never stored and simply expires unpaid.
      if (!created) {
        throw new DomainError('PIX_DUPLICATE_EXTERNAL_ID', { externalId: input.externalId, existingTransactionId: tx.transaction_id });
      }
      const charge = await chargesRepo.insert(trx, {
        transaction_id: tx.id,
        account_id: accountId,
        kind: 'cash_in',
        txid: transactionId.replaceAll('-', ''),
        location_id: locationId,
        br_code: pixCode,
        correlation_id: newUuidV4(),
        amount: input.amount,
        receiver_key: account.pix_key,
        expiration_seconds: input.expirationTime,
        expires_at: expiresAt,
        devedor: JSON.stringify({ nome: input.payer.fullName, [input.payer.document.length === 11 ? 'cpf' : 'cnpj']: input.payer.document }),
        solicitacao_pagador: input.description,
        info_adicionais: input.additionalInfo ? JSON.stringify(Object.entries(input.additionalInfo).map(([nome, valor]) => ({ nome, valor }))) : null,
        additional_info: input.additionalInfo ? JSON.stringify(input.additionalInfo) : null,
        splits: JSON.stringify(input.splits),
        created_at: now,
        updated_at: now,
      });
      await scheduler.schedule(trx, CHARGE_JOBS.expire, charge.expires_at, { chargeId: charge.id });
      return { tx, charge };
    });
  }

  function cobProblems(input: CobInput): string[] {
    const problems: string[] = [];
    const d = input.devedor;
    if (d) {
      if (d.cpf !== undefined && d.cnpj !== undefined) problems.push('devedor must have either cpf or cnpj, not both');
      else if (d.cpf === undefined && d.cnpj === undefined) problems.push('devedor must have cpf or cnpj');
      if (d.cpf !== undefined && !(/^\d{11}$/.test(d.cpf) && isValidCpf(d.cpf))) problems.push('devedor.cpf must be a valid CPF of exactly 11 digits');
      if (d.cnpj !== undefined && !isValidCnpj(d.cnpj)) problems.push('devedor.cnpj must be a valid CNPJ');
    }
    if (!detectDictKey(input.chave)) problems.push('chave must be a valid PIX key (phone +55..., e-mail, CPF, CNPJ or EVP)');
    return problems;
  }

  async function createCob(
    accountId: number,
    txid: string,
    input: CobInput,
    scenarioHeader: string | undefined,
    /** Written in the charge's own transaction (the portal's audit record of who created it). */
    record?: (trx: Trx<DB>, created: CreatedCharge) => Promise<void>,
  ): Promise<CreatedCharge> {
    const problems = cobProblems(input);
    if (problems.length > 0) throw new ValidationError(problems);
    checkExpiration('calendario.expiracao', input.expiracao);
    const scenario = deps.scenarios(scenarioHeader, 'cob');
    const chave = detectDictKey(input.chave)!.normalized;
    const account = await loadAccount(db, accountId);
    const keys = await accountsRepo.keysOf(db, accountId);
    if (!keys.some((k) => k.key === chave)) throw new ValidationError(['chave must be a PIX key of the account']);
    // A txid in use answers before the network hears of a charge that would never be stored.
    if (await chargesRepo.byTxid(db, accountId, txid)) throw new DomainError('CHARGE_TXID_IN_USE', { txid }, `A charge with txid ${txid} already exists`);
    const now = clock.now();
    const transactionId = newUuidV4();
    const locationId = newLocationId();
    const expiresAt = new Date(now.getTime() + input.expiracao * 1000);
    const devedor = input.devedor;
    const pixCode = await register({
      reference: transactionId,
      kind: 'cob',
      txid,
      amount: input.amount,
      amountChangeable: input.modalidadeAlteracao === 1,
      expiresAt,
      expirationSeconds: input.expiracao,
      description: input.solicitacaoPagador ?? null,
      receiver: { accountId, key: chave, name: account.name, document: account.document },
      payer: devedor ? { name: devedor.nome ?? '', document: (devedor.cpf ?? devedor.cnpj)! } : null,
      locationId,
      scenario,
    });

    return db.transaction().execute(async (trx) => {
      const tx = await transactionsRepo.insert(
        trx,
        pendingChargeTransaction({
          transactionId,
          accountId,
          origin: 'cob',
          family: 'bacen',
          externalId: null,
          amount: input.amount,
          pixKey: chave,
          description: input.solicitacaoPagador ?? null,
          metadata: {},
          scenario,
          now,
        }),
      );
      const charge = await chargesRepo.insertUnlessTxidUsed(trx, {
        transaction_id: tx.id,
        account_id: accountId,
        kind: 'cob',
        txid,
        location_id: locationId,
        br_code: pixCode,
        correlation_id: newUuidV4(),
        amount: input.amount,
        receiver_key: chave,
        expiration_seconds: input.expiracao,
        expires_at: expiresAt,
        modalidade_alteracao: input.modalidadeAlteracao,
        devedor: devedor ? JSON.stringify(devedor) : null,
        solicitacao_pagador: input.solicitacaoPagador ?? null,
        info_adicionais: input.infoAdicionais ? JSON.stringify(input.infoAdicionais) : null,
        additional_info: null,
        created_at: now,
        updated_at: now,
      });
      // Lost a race for the txid: throwing rolls the transaction row back with it.
      if (!charge) throw new DomainError('CHARGE_TXID_IN_USE', { txid }, `A charge with txid ${txid} already exists`);
      await scheduler.schedule(trx, CHARGE_JOBS.expire, charge.expires_at, { chargeId: charge.id });
      await record?.(trx, { tx, charge });
      return { tx, charge };
    });
  }

  async function getCob(accountId: number, txid: string): Promise<ChargeRow> {
    const charge = await chargesRepo.byTxid(db, accountId, txid);
    if (!charge || charge.kind !== 'cob') throw new DomainError('NOT_FOUND', undefined, `Charge ${txid} not found`);
    return charge;
  }

  /**
   * GET /cob: the charge and, once paid, the PIX that paid it with its refunds (the central bank's
   * CobCompleta `pix` array), so a client finds the end-to-end id its devolução needs.
   */
  async function readCob(accountId: number, txid: string): Promise<CobReading> {
    const charge = await getCob(accountId, txid);
    if (charge.status !== 'CONCLUIDA') return { charge, payments: [] };
    const tx = await transactionsRepo.byId(db, charge.transaction_id);
    if (!tx || tx.status !== 'CONFIRMED' || !tx.end_to_end_id) return { charge, payments: [] };
    return { charge, payments: [{ tx, refunds: await refundsRepo.ofOriginal(db, tx.id) }] };
  }

  /**
   * PATCH /cob: the receiver removes an ATIVA charge. Its transaction ends in ERROR
   * (CHARGE_CANCELLED) so it no longer counts as pending; the revision goes up by one.
   */
  async function cancelCob(accountId: number, txid: string): Promise<ChargeRow> {
    const existing = await getCob(accountId, txid);
    return db.transaction().execute(async (trx) => {
      const now = clock.now();
      const charge = await chargesRepo.leaveActive(trx, existing.id, 'REMOVIDA_PELO_USUARIO_RECEBEDOR', now, true);
      if (!charge) throw new DomainError('CHARGE_CHANGE_NOT_ALLOWED', { status: existing.status }, `The charge is ${existing.status}, not ATIVA`);
      await transactionsRepo.finishPending(trx, charge.transaction_id, {
        status: 'ERROR',
        at: now,
        errorCode: 'CHARGE_CANCELLED',
        errorMessage: 'Cobrança removida pelo usuário recebedor.',
      });
      return charge;
    });
  }

  return { createCashIn, createCob, getCob, readCob, cancelCob };
}

export type ChargeService = ReturnType<typeof createChargeService>;
