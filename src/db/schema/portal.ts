import type { Generated } from 'kysely';
import type { Json, Timestamp } from './columns.ts';
import type { PortalRole } from '../../domain/closed-lists.ts';

export type { PortalRole };

export interface PortalUsersTable {
  id: Generated<number>;
  email: string;
  role: PortalRole;
  account_id: number | null;
  password_hash: string | null;
  created_at: Timestamp;
  removed_at: Timestamp | null;
}

export interface PortalInvitationsTable {
  token_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PortalSessionsTable {
  id_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  revoked_at: Timestamp | null;
  address: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor: string;
  actor_email: string | null;
  action: string;
  account_id: number | null;
  target: string | null;
  address: string | null;
  before: Json<Record<string, unknown> | null>;
  after: Json<Record<string, unknown> | null>;
}

export interface ClientCaTable {
  singleton: Generated<boolean>;
  private_pkcs8_pem: string;
  certificate_pem: string;
  created_at: Timestamp;
}

export interface PortalTwoFactorTable {
  user_id: number;
  secret_sealed: string;
  enabled_at: Timestamp | null;
  last_step: number | null;
  created_at: Timestamp;
}

export interface PortalRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Timestamp | null;
}

export interface PortalSignInChallengesTable {
  id_hash: string;
  user_id: number;
  next: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  address: string | null;
}

// Tables owned by the portal feature (migration 940_portal.sql; two-factor: 1280).
export interface PortalTables {
  portal_users: PortalUsersTable;
  portal_invitations: PortalInvitationsTable;
  portal_sessions: PortalSessionsTable;
  audit_log: AuditLogTable;
  client_ca: ClientCaTable;
  portal_two_factor: PortalTwoFactorTable;
  portal_recovery_codes: PortalRecoveryCodesTable;
  portal_sign_in_challenges: PortalSignInChallengesTable;
}
