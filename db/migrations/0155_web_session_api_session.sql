-- Up Migration
-- A web session keeps the API session its sign-in opened: the back office in the browser gets short-lived access
-- tokens of it from the web app, and signing out revokes it. Sessions from before have none and sign in again.
ALTER TABLE web_sessions ADD COLUMN api_session_id text;
