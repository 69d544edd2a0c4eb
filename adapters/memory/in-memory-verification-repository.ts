import { AppError } from '../../core/errors.ts';
import type { Verification, VerificationSend, VerificationStatus, VerifySettings } from '../../core/domain/verification.ts';
import type { RecordedCode, VerificationRepository, VerifyConversionRow } from '../../core/ports/verification-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryVerificationRepository implements VerificationRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(v: Verification): Promise<void> {
    if (v.idempotencyKey && await this.findByIdempotencyKey(v.organizationId, v.idempotencyKey)) throw new AppError('CONFLICT', 'verification already exists');
    this.#state.verifications.set(v.id, copy(v));
  }

  async insertMany(verifications: readonly Verification[]): Promise<void> {
    for (const v of verifications) await this.insert(v);
  }

  async supersedeMany(items: ReadonlyArray<{ organizationId: string; recipient: string; exceptId: string }>, now: Date): Promise<number> {
    let n = 0;
    for (const i of items) n += await this.supersede(i.organizationId, i.recipient, i.exceptId, now);
    return n;
  }

  async findByIdempotencyKey(organizationId: string, key: string): Promise<Verification | null> {
    const v = this.#of(organizationId).find((x) => x.idempotencyKey === key);
    return v ? copy(v) : null;
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (this.#own(organizationId, id)) this.#state.verifications.delete(id);
  }

  async findById(organizationId: string, id: string): Promise<Verification | null> {
    const v = this.#own(organizationId, id);
    return v ? copy(v) : null;
  }

  async findLatestPending(organizationId: string, recipient: string): Promise<Verification | null> {
    const [v] = this.#of(organizationId).filter((x) => x.recipient === recipient && x.status === 'PENDING');
    return v ? copy(v) : null;
  }

  async supersede(organizationId: string, recipient: string, exceptId: string, now: Date): Promise<number> {
    const hit = this.#of(organizationId).filter((x) => x.recipient === recipient && x.status === 'PENDING' && x.id !== exceptId);
    for (const v of hit) Object.assign(v, { status: 'CANCELED', updatedAt: now });
    return hit.length;
  }

  async countCheck(organizationId: string, id: string, maxAttempts: number, now: Date): Promise<Verification | null> {
    const v = this.#own(organizationId, id);
    if (!v || v.status !== 'PENDING' || v.checkAttempts >= maxAttempts || v.expiresAt.getTime() <= now.getTime()) return null;
    Object.assign(v, { checkAttempts: v.checkAttempts + 1, updatedAt: now });
    return copy(v);
  }

  async countChecks(targets: ReadonlyArray<{ organizationId: string; id: string }>, maxAttempts: number, now: Date): Promise<Verification[]> {
    const counted: Verification[] = [];
    for (const t of targets) {
      const v = await this.countCheck(t.organizationId, t.id, maxAttempts, now);
      if (v) counted.push(v);
    }
    return counted;
  }

  async expireDue(now: Date, limit: number): Promise<Verification[]> {
    const due = [...this.#state.verifications.values()].filter((v) => v.status === 'PENDING' && v.expiresAt.getTime() <= now.getTime())
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime()).slice(0, limit);
    for (const v of due) Object.assign(v, { status: 'EXPIRED', updatedAt: now });
    return due.map(copy);
  }

  async approve(organizationId: string, id: string, now: Date): Promise<Verification | null> {
    const v = this.#own(organizationId, id);
    if (!v || v.status !== 'PENDING') return null;
    Object.assign(v, { status: 'APPROVED', approvedAt: now, updatedAt: now });
    return copy(v);
  }

  async setStatus(organizationId: string, id: string, from: readonly VerificationStatus[], to: VerificationStatus, now: Date): Promise<Verification | null> {
    const v = this.#own(organizationId, id);
    if (!v || !from.includes(v.status)) return null;
    Object.assign(v, { status: to, updatedAt: now });
    return copy(v);
  }

  async recordSend(organizationId: string, id: string, expectedSendAttempts: number, send: VerificationSend, next: RecordedCode, now: Date): Promise<Verification | null> {
    const v = this.#own(organizationId, id);
    if (!v || v.status !== 'PENDING' || v.sendAttempts !== expectedSendAttempts) return null;
    Object.assign(v, {
      sendAttempts: v.sendAttempts + 1, sends: [...v.sends, copy(send)], codeHash: next.codeHash, channels: [...next.channels], channelIndex: next.channelIndex,
      sandboxCode: next.sandboxCode, lastSentAt: send.createdAt, updatedAt: now,
    });
    return copy(v);
  }

  async claimFallbackSend(organizationId: string, id: string, expectedSendAttempts: number, lastSentAt: Date, now: Date): Promise<boolean> {
    const v = this.#own(organizationId, id);
    if (!v || v.status !== 'PENDING' || v.sendAttempts !== expectedSendAttempts || v.lastSentAt.getTime() !== lastSentAt.getTime()) return false;
    Object.assign(v, { lastSentAt: new Date(now), updatedAt: new Date(now) });
    return true;
  }

  async findPendingByLastMessage(organizationId: string, messageId: string): Promise<Verification | null> {
    const found = this.#of(organizationId).find((v) => v.status === 'PENDING' && v.sends.at(-1)?.messageId === messageId);
    return found ? copy(found) : null;
  }

  async list(organizationId: string, limit: number, status?: VerificationStatus): Promise<Verification[]> {
    return this.#of(organizationId).filter((v) => !status || v.status === status).slice(0, limit).map(copy);
  }

  async prefixStats(organizationId: string, prefix: string, since: Date): Promise<{ starts: number; approvals: number }> {
    const hits = this.#of(organizationId).filter((v) => v.prefix === prefix && v.createdAt.getTime() >= since.getTime());
    return { starts: hits.length, approvals: hits.filter((v) => v.status === 'APPROVED').length };
  }

  async conversion(organizationId: string, since: Date, limit: number): Promise<VerifyConversionRow[]> {
    const groups = new Map<string, VerifyConversionRow>();
    for (const v of this.#of(organizationId).filter((x) => x.createdAt.getTime() >= since.getTime())) {
      const hour = new Date(Math.floor(v.createdAt.getTime() / 3_600_000) * 3_600_000);
      const key = `${v.channels[0]}|${v.country ?? ''}|${hour.getTime()}`;
      const row = groups.get(key) ?? { channel: v.channels[0]!, country: v.country, hour, starts: 0, approvals: 0 };
      row.starts += 1;
      if (v.status === 'APPROVED') row.approvals += 1;
      groups.set(key, row);
    }
    return [...groups.values()].sort((a, b) => a.hour.getTime() - b.hour.getTime()).slice(0, limit);
  }

  async settings(organizationId: string): Promise<VerifySettings | null> {
    const s = this.#state.verifySettings.get(organizationId);
    return s ? copy(s) : null;
  }

  async saveSettings(organizationId: string, settings: VerifySettings): Promise<void> {
    this.#state.verifySettings.set(organizationId, copy(settings));
  }

  #own(organizationId: string, id: string): Verification | undefined {
    const v = this.#state.verifications.get(id);
    return v && v.organizationId === organizationId ? v : undefined;
  }

  #of(organizationId: string): Verification[] {
    return [...this.#state.verifications.values()].filter((v) => v.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  }
}
