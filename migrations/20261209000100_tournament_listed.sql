-- Whether the home page lists an event (issue #39 item 9). Events are listed from the start,
-- drafts too (clubs announce an event before registration opens); a copy imported from an
-- event file is not, so the home page does not show the same event twice until its chief
-- arbiter lists it.
alter table tournament add column listed boolean not null default true;
