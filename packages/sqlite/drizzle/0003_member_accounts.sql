-- Member (self-service) accounts move into their flock's own namespace, "{flock} {email}"
-- (a key no core username can be), one account per flock they were listed in. Their open
-- sessions (at most 24 hours old) end; members log in again with the same password.
INSERT OR IGNORE INTO `users` (`username`, `password_hash`, `flocks`, `role`, `created`)
  SELECT j.value || ' ' || u.username, u.password_hash, json_array(j.value), 'self-service', u.created
  FROM `users` u, json_each(u.flocks) j
  WHERE u.role = 'self-service' AND instr(u.username, ' ') = 0 AND j.value <> '*';
--> statement-breakpoint
DELETE FROM `api_keys` WHERE `username` IN (SELECT `username` FROM `users` WHERE `role` = 'self-service' AND instr(`username`, ' ') = 0);
--> statement-breakpoint
DELETE FROM `users` WHERE `role` = 'self-service' AND instr(`username`, ' ') = 0;
--> statement-breakpoint
-- Every key has a lifetime: a key issued without one expires 30 days (the default
-- auth.keyTtlHours) after it was issued.
UPDATE `api_keys` SET `expires` = strftime('%Y-%m-%dT%H:%M:%S', substr(`created`, 1, 19), '+720 hours') || substr(`created`, 20)
  WHERE `expires` IS NULL;
