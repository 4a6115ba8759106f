"""marshmallow shapes of ``/api/v1/groups`` (docs/groups.md, docs/api.md "Groups")."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..db.groups import SCOPES


class GroupLinksSchema(Schema):
    self = fields.String()
    page = fields.String(metadata={"description": "the group's page (`/g/<slug>`)"})


class RatingsStateSchema(Schema):
    up_to_date = fields.Boolean(metadata={"description": "false while a recompute is due or "
                                          "running (after a game was added or changed)"})
    done = fields.Integer(metadata={"description": "games rated so far by the recompute"})
    total = fields.Integer(metadata={"description": "games the recompute goes over"})


class GroupSchema(Schema):
    slug = fields.String()
    name = fields.String()
    private = fields.Boolean()
    checked_only = fields.Boolean(metadata={
        "description": "ratings count only games checked move by move (not score sheets)"})
    members = fields.Integer()
    games = fields.Integer()
    ratings = fields.Nested(RatingsStateSchema)
    created_at = fields.DateTime()
    links = fields.Nested(GroupLinksSchema)


class NewGroupSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    private = fields.Boolean(load_default=True)
    checked_only = fields.Boolean(load_default=False)
    members = fields.List(fields.String(), load_default=list, validate=validate.Length(max=100),
                          metadata={"description": "its first members, by name"})


class GroupChangeSchema(Schema):
    checked_only = fields.Boolean()
    private = fields.Boolean()


class CreatedGroupSchema(Schema):
    group = fields.Nested(GroupSchema)
    admin_token = fields.String(metadata={"description": "shown this once"})
    invite_key = fields.String(metadata={"description": "the invite link's key"})
    invite_url = fields.String(metadata={"description": "open it on a phone to join"})


class GroupMemberSchema(Schema):
    id = fields.Integer(metadata={"description": "stable: a merged member's id leads to the "
                                  "member it was merged into"})
    name = fields.String()
    aliases = fields.List(fields.String(), metadata={
        "description": "the names it is found under in logs (compared without accents, case "
                       "or extra spaces)"})


class MembersSchema(Schema):
    members = fields.List(fields.Nested(GroupMemberSchema))


class NewMemberSchema(Schema):
    name = fields.String(required=True)
    aliases = fields.List(fields.String(), load_default=list,
                          validate=validate.Length(max=20))


class MemberChangeSchema(Schema):
    name = fields.String(metadata={"description": "a new display name"})
    add_aliases = fields.List(fields.String(), validate=validate.Length(max=20))
    merge_into = fields.Integer(metadata={
        "description": "this member is that member: names and seats move, the id leads there"})


class GroupSeatSchema(Schema):
    name = fields.String(metadata={"description": "the seat's name in the log"})
    member = fields.Integer(allow_none=True, metadata={"description": "null: not known yet"})
    member_name = fields.String(allow_none=True)
    score = fields.Integer(allow_none=True)
    won = fields.Boolean(allow_none=True)


class GroupGameSchema(Schema):
    slug = fields.String()
    game = fields.String()
    mode = fields.String()
    title = fields.String(allow_none=True)
    played_at = fields.DateTime(allow_none=True)
    order_at = fields.DateTime(metadata={"description": "its place in the played order"})
    status = fields.String()
    checked = fields.Boolean(metadata={"description": "checked move by move (false: a score "
                                       "sheet, not checked move by move)"})
    legal = fields.Boolean()
    claims_match = fields.Boolean(allow_none=True, metadata={
        "description": "whether what was written down (a sheet's numbers) matches the replay"})
    seats = fields.List(fields.Nested(GroupSeatSchema))
    share_url = fields.String()


class GroupGamePageSchema(Schema):
    items = fields.List(fields.Nested(GroupGameSchema))
    next_cursor = fields.String(allow_none=True)


class GroupGamesQuerySchema(Schema):
    cursor = fields.String()
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    order = fields.String(load_default="newest", validate=validate.OneOf(("newest", "played")),
                          metadata={"description": "`played`: oldest first, the ratings' order"})


class AddGameSchema(Schema):
    game = fields.String(metadata={"description": "a stored game's slug (with `owner_token`)"})
    owner_token = fields.String(metadata={"description": "the game's owner token"})
    log = fields.Dict(metadata={"description": "or a log to store and add (popreplay/1)"})


class JoinedSchema(Schema):
    game = fields.Nested(GroupGameSchema)
    created = fields.Boolean(metadata={"description": "false: it was in the group already"})
    unmapped = fields.List(fields.String(), metadata={"description": "the names to ask"})


class NamesSchema(Schema):
    names = fields.Dict(keys=fields.String(), values=fields.Integer(allow_none=True),
                        required=True, metadata={"description": "a seat's name -> a member's "
                                                 "id (null: not known)"})
    remember = fields.Boolean(load_default=True, metadata={
        "description": "keep each name as the member's alias (later games map by themselves)"})


class GroupStandingSchema(Schema):
    member = fields.Integer()
    name = fields.String()
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float(metadata={"description": "mu - 3 sigma: what the board sorts by"})
    games = fields.Integer()
    wins = fields.Integer()


class BoardSchema(Schema):
    board = fields.String(metadata={"description": "a game, or `game/mode`"})
    standings = fields.List(fields.Nested(GroupStandingSchema))


class LeaderboardsSchema(Schema):
    ratings = fields.Nested(RatingsStateSchema)
    boards = fields.List(fields.Nested(BoardSchema))


class HistoryPointSchema(Schema):
    game = fields.String(metadata={"description": "the game's slug"})
    played_at = fields.DateTime()
    rank = fields.Integer()
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float()


class HistorySchema(Schema):
    member = fields.Integer()
    board = fields.String()
    history = fields.List(fields.Nested(HistoryPointSchema))


class HistoryQuerySchema(Schema):
    board = fields.String(required=True)


class MemberStatSchema(Schema):
    game = fields.String()
    mode = fields.String()
    games = fields.Integer()
    complete = fields.Integer()
    wins = fields.Integer()
    win_rate = fields.Float(allow_none=True)
    average = fields.Float(allow_none=True)
    best = fields.Integer(allow_none=True)


class HeadToHeadSchema(Schema):
    member = fields.Integer()
    name = fields.String()
    games = fields.Integer()
    ahead = fields.Integer()
    behind = fields.Integer()
    level = fields.Integer()


class CurrentRunSchema(Schema):
    won = fields.Boolean()
    games = fields.Integer()


class StreaksSchema(Schema):
    longest_wins = fields.Integer()
    current = fields.Nested(CurrentRunSchema, allow_none=True)


class MemberStatsSchema(Schema):
    member = fields.Nested(GroupMemberSchema)
    stats = fields.List(fields.Nested(MemberStatSchema))
    ratings = fields.List(fields.Nested(GroupStandingSchema), metadata={
        "description": "the member's rating on each board (`name` is the board)"})
    head_to_head = fields.List(fields.Nested(HeadToHeadSchema))
    streaks = fields.Nested(StreaksSchema)


class GroupTokenSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    scopes = fields.List(fields.String(validate=validate.OneOf(SCOPES)))
    created_at = fields.DateTime()
    revoked_at = fields.DateTime(allow_none=True)


class TokensSchema(Schema):
    tokens = fields.List(fields.Nested(GroupTokenSchema))


class NewTokenSchema(Schema):
    name = fields.String(required=True)
    scopes = fields.List(fields.String(validate=validate.OneOf(SCOPES)), required=True)


class CreatedTokenSchema(GroupTokenSchema):
    token = fields.String(metadata={"description": "shown this once"})


class SheetSchema(Schema):
    game = fields.String(required=True)
    mode = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    claimed = fields.Dict(required=True, metadata={
        "description": "what the score sheet holds: the game's claimable fields for the mode "
                       "(POP! battle: `rounds[i].scores` and `winners`; cube, slap, Bloops: "
                       "their scoring summary) — docs/log-format.md, \"Score sheets\""})
    played_at = fields.AwareDateTime(metadata={"description": "default: now"})
    title = fields.String(validate=validate.Length(max=200))


class AttachLogSchema(Schema):
    log = fields.Dict(required=True, metadata={"description": "the full log (popreplay/1)"})
