-- records_cmp16(a, b): -1, 0 or 1 by JavaScript's (UTF-16 code unit) order, which the
-- shared query compiler uses to check range bounds holding characters at or above U+D800
-- (see @records-service/sql text-order). UTF-16 order is UTF-8 byte order except that
-- U+E000..U+FFFF (lead bytes EE, EF) sort after the astral characters (lead bytes F0..F4);
-- records_key16 moves those two lead bytes above F4 (to F5, F6: no valid UTF-8 byte), so
-- byte order of the keys is UTF-16 order.
CREATE FUNCTION records_key16(b bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  r bytea := b;
BEGIN
  IF position('\xee'::bytea in b) = 0 AND position('\xef'::bytea in b) = 0 THEN
    RETURN b;
  END IF;
  FOR i IN 0 .. length(b) - 1 LOOP
    CASE get_byte(b, i)
      WHEN 238 THEN r := set_byte(r, i, 245);
      WHEN 239 THEN r := set_byte(r, i, 246);
      ELSE NULL;
    END CASE;
  END LOOP;
  RETURN r;
END
$$;
--> statement-breakpoint
CREATE FUNCTION records_cmp16(a bytea, b bytea) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN a = b THEN 0 WHEN records_key16(a) < records_key16(b) THEN -1 ELSE 1 END
$$;
--> statement-breakpoint
CREATE FUNCTION records_cmp16(a text, b text) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT records_cmp16(convert_to(a, 'UTF8'), convert_to(b, 'UTF8'))
$$;
