-- The round clock of the big screen (issue #16): the arbiter starts it when play begins; the
-- screens count from it. Null until started.
alter table round add column started_at timestamptz;
