/** Valid Brazilian documents for tests, made from a seed (check digits computed, never hard-coded). */
export function cpf(seed: number): string {
  const base = String(100_000_000 + (seed % 899_999_999)).padStart(9, '0').slice(0, 9);
  const digits = base.split('').map(Number);
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += digits[i]! * (len + 1 - i);
    const r = (sum * 10) % 11;
    digits.push(r === 10 ? 0 : r);
  }
  return digits.join('');
}

export function cnpj(seed: number): string {
  const base = (String(10_000_000 + (seed % 89_999_999)).padStart(8, '0') + '0001').split('').map(Number);
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const sum = weights.reduce((acc, w, i) => acc + w * base[i]!, 0);
    const r = sum % 11;
    base.push(r < 2 ? 0 : 11 - r);
  }
  return base.join('');
}
