import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { cnpj, cpf } from '../factories.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('admin accounts', () => {
  it('refuses calls without the admin token', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/admin/accounts', payload: { name: 'A', document: cpf(1) } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ statusCode: 401, message: expect.any(String), error: 'Unauthorized' });
    const wrong = await h.app.inject({ method: 'GET', url: '/admin/accounts/1', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('creates an account with an EVP key, default limits by type and zero fees', async () => {
    const res = await h.admin('POST', '/admin/accounts', { name: 'Maria', document: cpf(42) });
    expect(res.statusCode).toBe(201);
    const account = res.json();
    expect(account).toMatchObject({ name: 'Maria', document: cpf(42), type: 'INDIVIDUAL' });
    expect(account.pixKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const details = (await h.admin('GET', `/admin/accounts/${account.id}`)).json();
    expect(details.balance).toEqual({ available: 0, blocked: 0 });
    expect(details.limits).toEqual({ perTransaction: 5000, daily: 20000, nightly: 1000 });
    expect(details.fees).toEqual({ cashIn: { fixed: 0, percent: 0 }, cashOut: { fixed: 0, percent: 0 } });
    const company = (await h.admin('POST', '/admin/accounts', { name: 'ACME', document: cnpj(7) })).json();
    expect(company.type).toBe('COMPANY');
    expect((await h.admin('GET', `/admin/accounts/${company.id}`)).json().limits).toEqual({
      perTransaction: 100000,
      daily: 1000000,
      nightly: 50000,
    });
  });

  it('rejects an invalid document, naming the field', async () => {
    const res = await h.admin('POST', '/admin/accounts', { name: 'X', document: '12345678900' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual([expect.stringContaining('document')]);
  });

  it('answers 404 for an unknown account', async () => {
    expect((await h.admin('GET', '/admin/accounts/99999')).statusCode).toBe(404);
  });

  it('updates limits and fees in BRL, refusing more than 2 decimals', async () => {
    const { id } = await h.createAccount();
    const limits = await h.admin('PATCH', `/admin/accounts/${id}/limits`, { perTransaction: 100.5, nightly: 50 });
    expect(limits.statusCode).toBe(200);
    expect(limits.json()).toEqual({ perTransaction: 100.5, daily: 20000, nightly: 50 });
    const bad = await h.admin('PATCH', `/admin/accounts/${id}/limits`, { daily: 10.123 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(['daily must be a number with at most 2 decimal places']);
    const fees = await h.admin('PATCH', `/admin/accounts/${id}/fees`, { cashOut: { fixed: 0.5, percent: 1.25 } });
    expect(fees.json()).toEqual({ cashIn: { fixed: 0, percent: 0 }, cashOut: { fixed: 0.5, percent: 1.25 } });
  });
});
