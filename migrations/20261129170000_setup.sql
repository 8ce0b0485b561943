-- Shared helpers for every later migration.

-- Keeps `updated_at` honest without relying on every query to set it.
create or replace function set_updated_at() returns trigger as $$
begin
    new.updated_at = now();
    return new;
end;
$$ language plpgsql;

-- Attach with: select manage_updated_at('table_name');
create or replace function manage_updated_at(_tbl regclass) returns void as $$
begin
    execute format('create trigger set_updated_at before update on %s
                    for each row when (old is distinct from new) execute procedure set_updated_at()', _tbl);
end;
$$ language plpgsql;

-- The audit log is append-only (SPEC §2): any update or delete is refused by the database itself.
create or replace function refuse_change() returns trigger as $$
begin
    raise exception 'table % is append-only', tg_table_name using errcode = 'check_violation';
end;
$$ language plpgsql;
