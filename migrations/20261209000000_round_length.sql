-- A set round length (issue #39 item 9): the arbiter starts the round clock with the minutes
-- the round lasts, and the big screens count down to its end instead of only counting up.
alter table round add column clock_minutes integer;
alter table round add constraint round_clock_minutes_check
    check (clock_minutes is null or clock_minutes between 1 and 1440);
