-- As sqlite/V4: change_log is only ever read by seq ranges.
DROP INDEX change_log_by_meeting;
