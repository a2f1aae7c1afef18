-- change_log is only ever read by seq ranges (the search index's catch-up and pending
-- changes, /metrics' lag); the meeting_id index only cost a write per imported meeting.
DROP INDEX change_log_by_meeting;
