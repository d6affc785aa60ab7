// The session and user cache's invalidation (docs/decisions/026): every committed change to
// what authentication reads (a user row, a role's permissions, a session's owner or data, a
// session ended) adds one to `auth_epoch.epoch` and sends NOTIFY on `rescuelog_auth` with
// "<epoch>:<kind>:<ids>". Triggers, not application code, so no write path can forget it.
// The epoch row is updated in the writing transaction: its lock orders the changes, so the
// epochs arrive in commit order and a gap means a notification was missed.
// Payloads: "u:<user ids>" a user changed, "s:<user ids>" sessions of those users ended or
// changed, "*:" roles changed (drop every cached user). Ids past ~7,000 characters become "*".
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table auth_epoch (
    id boolean primary key default true check (id),
    epoch bigint not null default 0
  )`.execute(db);
  await sql`insert into auth_epoch (id, epoch) values (true, 0)`.execute(db);

  await sql`create function auth_epoch_bump(kind text, ids text) returns void language plpgsql as $$
    declare
      next bigint;
    begin
      update auth_epoch set epoch = epoch + 1 where id returning epoch into next;
      if ids is null or length(ids) > 7000 then
        kind := '*';
        ids := '';
      end if;
      perform pg_notify('rescuelog_auth', next::text || ':' || kind || ':' || ids);
    end
  $$`.execute(db);

  // users: insert needs nothing (no cache holds a user that did not exist).
  await sql`create function auth_users_changed() returns trigger language plpgsql as $$
    declare
      ids text;
    begin
      select string_agg(distinct id::text, ',') into ids from old_rows;
      if ids is not null then
        perform auth_epoch_bump('u', ids);
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger users_auth_update after update on users
    referencing old table as old_rows for each statement execute function auth_users_changed()`.execute(
    db,
  );
  await sql`create trigger users_auth_delete after delete on users
    referencing old table as old_rows for each statement execute function auth_users_changed()`.execute(
    db,
  );

  await sql`create function auth_roles_changed() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from old_rows) then
        perform auth_epoch_bump('*', '');
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger roles_auth_update after update on roles
    referencing old table as old_rows for each statement execute function auth_roles_changed()`.execute(
    db,
  );
  await sql`create trigger roles_auth_delete after delete on roles
    referencing old table as old_rows for each statement execute function auth_roles_changed()`.execute(
    db,
  );

  // sessions: a touch (last_seen_at, expires_at only) changes nothing a cache holds and does
  // not count; an owner or data change and every delete do.
  await sql`create function auth_sessions_deleted() returns trigger language plpgsql as $$
    declare
      ids text;
      n bigint;
    begin
      select string_agg(distinct coalesce(user_id, 0)::text, ','), count(*) into ids, n from old_rows;
      if n > 0 then
        perform auth_epoch_bump('s', ids);
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create function auth_sessions_updated() returns trigger language plpgsql as $$
    declare
      ids text;
      n bigint;
    begin
      select string_agg(distinct coalesce(o.user_id, 0)::text || ',' || coalesce(u.user_id, 0)::text, ','),
             count(*)
        into ids, n
        from old_rows o join new_rows u on u.sid = o.sid
        where u.user_id is distinct from o.user_id or u.data is distinct from o.data;
      if n > 0 then
        perform auth_epoch_bump('s', ids);
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger sessions_auth_delete after delete on sessions
    referencing old table as old_rows for each statement execute function auth_sessions_deleted()`.execute(
    db,
  );
  await sql`create trigger sessions_auth_update after update on sessions
    referencing old table as old_rows new table as new_rows
    for each statement execute function auth_sessions_updated()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger sessions_auth_update on sessions`.execute(db);
  await sql`drop trigger sessions_auth_delete on sessions`.execute(db);
  await sql`drop trigger roles_auth_delete on roles`.execute(db);
  await sql`drop trigger roles_auth_update on roles`.execute(db);
  await sql`drop trigger users_auth_delete on users`.execute(db);
  await sql`drop trigger users_auth_update on users`.execute(db);
  await sql`drop function auth_sessions_updated()`.execute(db);
  await sql`drop function auth_sessions_deleted()`.execute(db);
  await sql`drop function auth_roles_changed()`.execute(db);
  await sql`drop function auth_users_changed()`.execute(db);
  await sql`drop function auth_epoch_bump(text, text)`.execute(db);
  await sql`drop table auth_epoch`.execute(db);
}
