"""The routes, one module a group: `auth` (login, logout, me), `sentences` (an annotator's
layer), `curation` (the curator's), `manage` (the manager's).  Each view fetches the
session, calls the room's logic and returns JSON; `common` holds what they share."""
