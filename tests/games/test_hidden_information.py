"""Hidden information: nothing player A can fetch or receive names a card in another player's hand or
in the stock.

Seeded games between people only are played through the real move URL, each move chosen by the
normal computer player for the seat to move (from ``games.store``'s state) and posted as that seat's
user. After every move everything A can get is collected: the game page, the board fragment, the
lobby, the invite page, the answers to A's own moves and to refused moves A sends, and the websocket
messages A's consumer receives. None of it may name a card that is, at that moment, in another
player's hand or in the stock: not as a ``data-card`` attribute, not as its key (``10H``), not as
its title (``10 of hearts``), and not in the symbol form (``10♥``) unless a public move event named
that card: the move log writes discards, cards taken from the discard pile and melds that way, and
after a new deal it still shows the last hand's moves, whose cards are then somewhere new.

Wild Rummy is scanned the same way. What a wild on the table stands for (rule 0.3: ``data-stands-for="9C"``,
the ``=9♣`` label, "standing for 9♣" in the card's title, ``7♦=9♣`` in the meld's label and in the move
log) is public even when the physical 9♣ is in another hand or the stock: those declarations, and only
they, are taken out before the scan, each checked to be a declaration that is on the table or that a
public move event made. Pending cards (W6) and the taken discard are the mover's own cards.

Frayzy is scanned with its own card forms too: keys (``R7``, ``B12~1``, ``SKIP``, ``DRAW5~2``, a
later Wild copy ``W~3``), titles and the log's words (``Red 7``), and a table Wild's declaration
(``W=R10`` as ``data-stands-for="R10"``, ``=Red 10``, ``Wild=Red 10``). A Draw 5's cards, like a
draw from the stock, are never named.
"""
import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games.engine.bots import chooser
from games.engine.cards import COLOUR_NAMES, SUIT_NAMES, SUIT_SYMBOLS
from games.models import Card, Deal, Game, Move
from tests.factories import (
    current_deal,
    data_version,
    load_state,
    login,
    make_started_game,
    make_user,
    play_moves,
    post_move,
    seats_of,
)
from tests.games.sockets import SILENCE, open_socket, session_cookie


def async_db_test(test):
    """Mark an async test that runs sync code against a committed (transactional) database."""
    for mark in (pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
                 pytest.mark.usefixtures("close_thread_connections")):
        test = mark(test)
    return test


RANK = r"(10|[2-9AJQK])"
FRAYZY_SCAN_SEED = "hidden-frayzy-2-1"
KEY_FORM = re.compile(rf"(?<![\w%~-]){RANK}([CDHS])(?:~(\d+))?(?![\w~-])")
"""A card key as a whole word (``%3C`` in a data: URL or a card inside a token does not count)."""
RANK_OF_WORD = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
TITLE_FORM = re.compile(rf"(?<!\w)({'|'.join(RANK_OF_WORD)}|{RANK[1:-1]}) of ({'|'.join(SUIT_NAMES.values())})")
"""A card in words, as its title and its name for assistive technology write it: ``queen of hearts``,
``10 of clubs``."""
SYMBOL_FORM = re.compile(rf"(?<!\w){RANK}([{''.join(SUIT_SYMBOLS.values())}])")
DATA_CARD = re.compile(r'data-card="([^"]*)"')
CSRF_TOKEN = re.compile(r"[A-Za-z0-9]{64}")
SUIT_OF_NAME = {name: letter for letter, name in SUIT_NAMES.items()}
SUIT_OF_SYMBOL = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
SYMBOLS = "".join(SUIT_SYMBOLS.values())
DECLARED_LABEL = re.compile(r'<span class="card-stands" data-stands-for="([^"]*)">=([^<]*)</span>')
"""What a wild on the table stands for, as the card tag shows it (0.3): ``data-stands-for="9C"`` and ``=9♣``."""
DECLARED_ATTRIBUTE = re.compile(r' data-stands-for="([^"]*)"')
DECLARED_TITLE = re.compile(r'(?:, wild|Wild), standing for ([^"<,]*)(?=["<,])')
"""The same declaration in words: the wild's title (``title="7 of diamonds, wild, standing for 9
of clubs"``) and a meld read out to a screen reader (``ben's meld: 8 of clubs, 2 of clubs, wild,
standing for 9 of clubs, 10 of clubs</span>``)."""
NUMBER = r"(1[0-2]|[1-9])"
COLOUR_OF_WORD = {word: letter for letter, name in COLOUR_NAMES.items() for word in (name, name.capitalize())}
COLOUR_WORDS = "|".join(COLOUR_OF_WORD)
FRAYZY_KEY_FORM = re.compile(rf"(?<![\w%~-])([RBGY]{NUMBER}|SKIP|DRAW5|DISCARD1|W(?=~))(?:~(\d+))?(?![\w~-])")
"""A Frayzy card key as a whole word; a bare ``W`` is the Wild's face, so only its later copies (``W~3``) count."""
FRAYZY_SHOWN_FORM = re.compile(rf"(?<!\w)({COLOUR_WORDS}) {NUMBER}(?!\d)")
"""A Frayzy number card as titles and the move log write it (``Red 7``), and its name in words (``red 7``)."""
FRAYZY_WILD_NOTATION = re.compile(rf"Wild=(?P<code>(?:{COLOUR_WORDS}) {NUMBER}|{NUMBER})(?!\d)")
"""A table Wild with what it stands for: ``Wild=Red 10``, ``Wild=7`` (meld labels, the move log, swap buttons)."""
WILD_NOTATION = re.compile(rf"(?<!\w)(?P<wild>{RANK}[{SYMBOLS}])=(?P<code>{RANK}[{SYMBOLS}]?)(?![\w{SYMBOLS}])")
"""A wild written with what it stands for, ``7♦=9♣`` (meld labels, the move log, swap buttons)."""


def mentioned_cards(text):
    """The card keys ``text`` names, by form: ``{"data-card", "key", "title", "symbol"}``."""
    return {
        "data-card": set(DATA_CARD.findall(text)),
        "key": {f"{rank}{suit}" + (f"~{copy}" if copy and copy != "0" else "")
                for rank, suit, copy in KEY_FORM.findall(text)}
        | {code + (f"~{copy}" if copy and copy != "0" else "") for code, _, copy in FRAYZY_KEY_FORM.findall(text)},
        "title": {f"{RANK_OF_WORD.get(rank, rank)}{SUIT_OF_NAME[suit]}" for rank, suit in TITLE_FORM.findall(text)},
        "symbol": {f"{rank}{SUIT_OF_SYMBOL[suit]}" for rank, suit in SYMBOL_FORM.findall(text)}
        | {f"{COLOUR_OF_WORD[colour]}{number}" for colour, number in FRAYZY_SHOWN_FORM.findall(text)},
    }


def leaks(text, secret, announced, visible=frozenset()):
    """Secret cards named in ``text``: ``[(form, key), ...]``. ``announced`` cards (named by public
    move events) are allowed in the symbol form only, which is how the move log writes them. The
    symbol form does not tell copies apart (Frayzy's ``Red 7`` is ``R7`` or ``R7~1``): a card whose
    ``visible`` twin (one not secret) shares its notation is allowed in that form too."""
    found = []
    for form, keys in mentioned_cards(text).items():
        allowed = {key.partition("~")[0] for key in announced} | set(visible) if form == "symbol" else set()
        found += [(form, key) for key in sorted((keys & secret) - allowed)]
    return found


def code_of(shown):
    """The notation of what a wild stands for from its shown form: ``"9♣"`` -> ``"9C"``, ``"Red 10"``
    or ``"red 10"`` -> ``"R10"``, ``"9"`` -> ``"9"``; in words ``"queen of hearts"`` -> ``"QH"``,
    ``"any 9"`` -> ``"9"``."""
    colour, _, number = shown.partition(" ")
    if colour in COLOUR_OF_WORD:
        return COLOUR_OF_WORD[colour] + number
    if colour == "any":
        return RANK_OF_WORD.get(number, number)
    if (words := TITLE_FORM.fullmatch(shown)) is not None:
        return RANK_OF_WORD.get(words.group(1), words.group(1)) + SUIT_OF_NAME[words.group(2)]
    return shown[:-1] + SUIT_OF_SYMBOL[shown[-1]] if shown[-1:] in SUIT_OF_SYMBOL else shown


def without_declarations(text, declared):
    """``text`` with the public declarations of wilds (0.3) taken out, and the codes they declared.

    ``declared`` holds the public declarations as ``(wild key, code)`` pairs; every declaration
    taken out must be one of them (for the forms that do not name the wild, its code must be), so
    nothing but a real, public declaration is ever excused from the scan.
    """
    codes = {code for _, code in declared}
    removed = []

    def label(match):
        assert match.group(1) in codes and code_of(match.group(2)) == match.group(1), match.group(0)
        removed.append(match.group(1))
        return ""

    def attribute(match):
        assert match.group(1) in codes, match.group(0)
        removed.append(match.group(1))
        return ""

    def title(match):
        assert code_of(match.group(1)) in codes, match.group(0)
        removed.append(code_of(match.group(1)))
        return ", wild"

    def frayzy_notation(match):
        # Every Wild looks alike: the code must be a public declaration of some Wild.
        assert code_of(match["code"]) in codes, match.group(0)
        removed.append(code_of(match["code"]))
        return "Wild="

    def notation(match):
        wild, code = code_of(match["wild"]), code_of(match["code"])
        assert (wild, code) in declared, match.group(0)
        removed.append(code)
        return f"{match['wild']}="

    text = DECLARED_LABEL.sub(label, text)
    text = DECLARED_ATTRIBUTE.sub(attribute, text)
    text = DECLARED_TITLE.sub(title, text)
    text = WILD_NOTATION.sub(notation, text)
    text = FRAYZY_WILD_NOTATION.sub(frayzy_notation, text)
    return text, removed


def test_only_public_declarations_are_taken_out():
    """Control: a wild's declaration is taken out in each of its forms, the wild itself and every
    other card stay, and a declaration that is not public is not excused."""
    page = ('<span class="meld-cards" aria-label="7♦=9♣ 9♠ 9♥"><span class="card card-red  card-wild" '
            'data-card="7D" title="7 of diamonds, wild, standing for 9♣"><span class="card-index">7♦</span>'
            '<span class="card-wild-mark">wild</span><span class="card-stands" data-stands-for="9C">=9♣</span>'
            '</span></span> Bo swapped 9♦ for the wild 7♦=9♣. 9♣ title="9 of clubs"')
    text, removed = without_declarations(page, {("7D", "9C")})
    assert removed == ["9C"] * 4
    assert mentioned_cards(text) == {"data-card": {"7D"}, "key": {"7D"}, "title": {"7D", "9C"},
                                     "symbol": {"7D", "9S", "9H", "9D", "9C"}}
    assert leaks(text, {"9C", "9D"}, {"9D"}) == [("title", "9C"), ("symbol", "9C")]
    with pytest.raises(AssertionError):
        without_declarations(page, {("7D", "9H")})
    with pytest.raises(AssertionError):
        without_declarations("the wild 7♦=9♣", {("7S", "9C")})


def shown_after_redirect(response, code):
    """A plain form's refused move: it redirects (303) to the game page, which shows the refusal
    ``code``; returns that page (scanned like every other answer)."""
    assert response.status_code == 303
    page = response.client.get(response["Location"])
    assert page.status_code == 200 and f'data-error-code="{code}"' in page.content.decode()
    return page


def response_text(response):
    """Status, headers and body of a response, as one string to scan."""
    headers = "\n".join(f"{name}: {value}" for name, value in response.items())
    return f"{response.status_code}\n{headers}\n{response.content.decode()}"


def test_the_scanner_finds_every_form():
    """Control: each form of a card name is found, and the look-alikes in our pages are not."""
    found = mentioned_cards('<span data-card="QS" title="10 of hearts"></span> A♣ 7D, (3C) '
                            "%3C/svg 3Csvg a-4C-b x5Hy 10♥")
    assert found == {"data-card": {"QS"}, "key": {"QS", "7D", "3C"}, "title": {"10H"}, "symbol": {"AC", "10H"}}
    assert leaks("took A♣", {"AC"}, {"AC"}) == []
    assert leaks('took A♣ title="A of clubs"', {"AC"}, {"AC"}) == [("title", "AC")]
    assert mentioned_cards('aria-label="queen of hearts" aria-label="ace of clubs" red 7')["title"] == {"QH", "AC"}
    assert mentioned_cards("red 7")["symbol"] == {"R7"}
    text, removed = without_declarations('aria-label="7 of diamonds, wild, standing for 9 of clubs"', {("7D", "9C")})
    assert removed == ["9C"] and mentioned_cards(text)["title"] == {"7D"}


class Scan:
    """Plays one seeded game over HTTP and collects what the watching player A receives."""

    def __init__(self, players, seed, steps, variant="standard"):
        self.players, self.seed, self.steps, self.variant = players, seed, steps, variant
        self.rng = random.Random(seed)
        self.checked = 0
        self.announced_keys = set()
        self.announced_declarations = set()
        self.coverage = {"hands": set(), "melds": 0, "takes": 0, "rebuilds": 0, "refusals": 0, "a_moves": 0,
                         "wild_melds": 0, "swaps": 0, "declarations": 0, "secret_declarations": 0,
                         "a_pending": 0, "draw_fives": 0, "action_cards": 0}

    def setup(self):
        """Create the users and the private game (A holds seat 0)."""
        names = ["ann", "bob", "cat", "dan"][: self.players]
        self.game = make_started_game(players=self.players, humans=names, seed=self.seed, is_private=True,
                                      variant=self.variant)
        self.seats = seats_of(self.game)
        self.clients = {seat.position: login(seat.user) for seat in self.seats}
        self.a = self.seats[0]
        return self.a.user

    # ----- what A gets --------------------------------------------------------------------------

    def a_fetches(self):
        """A's pages now: the game page, the board fragment, the lobby and the invite page."""
        client, game = self.clients[0], self.game
        got = [client.get(game.get_absolute_url()),
               client.get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"}),
               client.get(reverse("lobby")), client.get(reverse("join_by_code", args=[game.invite_code]))]
        for response in got:
            assert response.status_code == 200
        return got

    def a_refused_moves(self, state, secret_hand, stock):
        """Moves A sends that must be refused; returns the answers."""
        client, game, a = self.clients[0], self.game, self.a
        got = [post_move(client, game, {"type": "draw_stock"}, game.version - 1, htmx=True)]
        assert got[-1].status_code == 409
        if state.deal.turn != a.position:
            got.append(shown_after_redirect(post_move(client, game, {"type": "take_discard"}, game.version),
                                            "not_your_turn"))
        elif state.deal.phase == "play":
            # Guessing another player's card and guessing a stock card get the same answer (no oracle).
            guesses = [post_move(client, game, {"type": "discard", "card": card}, game.version, htmx=True)
                       for card in (sorted(secret_hand)[0], sorted(stock)[0])]
            bodies = [CSRF_TOKEN.sub("TOKEN", r.content.decode()) for r in guesses]
            assert [r.status_code for r in guesses] == [422, 422]
            assert 'data-error-code="not_in_hand"' in bodies[0]
            assert bodies[0] == bodies[1]
            got += guesses
            got.append(shown_after_redirect(post_move(client, game, {"type": "lay_meld",
                                                                     "cards": sorted(secret_hand)[:3]}, game.version),
                                            "not_in_hand"))
            wilds = [(meld.id, wild.key) for meld in state.deal.melds for wild, _ in meld.shape.wilds]
            if wilds:
                # W11: swapping another player's card or a stock card for a wild gets the same answer.
                meld, wild = wilds[0]
                guesses = [post_move(client, game, {"type": "swap_wild", "meld": meld, "card": card, "wild": wild},
                                     game.version, htmx=True) for card in (sorted(secret_hand)[0], sorted(stock)[0])]
                bodies = [CSRF_TOKEN.sub("TOKEN", r.content.decode()) for r in guesses]
                assert [r.status_code for r in guesses] == [422, 422]
                assert 'data-error-code="not_in_hand"' in bodies[0]
                assert bodies[0] == bodies[1]
                got += guesses
        self.coverage["refusals"] += len(got)
        return got

    # ----- one step -----------------------------------------------------------------------------

    def places(self):
        """Where each card of the current deal is, read from the Card rows: key -> (location, seat id)."""
        return {(code if copy == 0 else f"{code}~{copy}"): (location, seat_id)
                for code, copy, location, seat_id in Card.objects.filter(deal=current_deal(self.game))
                .values_list("code", "copy", "location", "seat_id")}

    def secret(self, places):
        """Keys of the cards A must not see: other seats' hands and the stock."""
        return {key for key, (location, seat_id) in places.items()
                if location == Card.Location.STOCK or (location == Card.Location.HAND and seat_id != self.a.pk)}

    def step(self, step):
        """Play one move as the seat to move, then collect and check all A can see; returns the new version."""
        game = self.game
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE, f"the game ended at step {step}; use more hands"
        state = load_state(game)
        mover = self.seats[state.deal.turn]
        places = self.places()
        if step % 3 == 0:
            secret = self.secret(places)
            stock = {key for key in secret if places[key][0] == Card.Location.STOCK}
            self.check(step, self.a_refused_moves(state, secret - stock, stock), secret)
        got = []
        version_before = game.version
        action = chooser(state.variant)(state.player_view(mover.position), self.rng).to_json()
        hand_before = {key for key, place in places.items() if place == (Card.Location.HAND, mover.pk)}
        response = post_move(self.clients[mover.position], game, action, game.version, htmx=step % 2 == 0)
        assert response.status_code in (200, 302), response.content.decode()[:500]
        if mover.pk == self.a.pk:
            got.append(response)
            self.coverage["a_moves"] += 1
        game.refresh_from_db()
        assert game.version == version_before + 1
        move = Move.objects.get(game=game, ply=version_before)
        places = self.places()
        if action["type"] == "draw_stock":
            drawn = {key for key, place in places.items() if place == (Card.Location.HAND, mover.pk)} - hand_before
            assert len(drawn) == 1
            assert not leaks(json.dumps(move.events), drawn, set()), move.events
        if any(event["type"] == "draw_five" for event in move.events):
            # F14: the five cards a Draw 5 hands out are never named.
            target = next(event["target"] for event in move.events if event["type"] == "draw_five")
            got_five = {key for key, place in places.items() if place == (Card.Location.HAND, self.seats[target].pk)}
            assert not leaks(json.dumps(move.events), got_five, set()), move.events
            self.coverage["draw_fives"] += 1
        self.note(move)
        got += self.a_fetches()
        self.check(step, got, self.secret(places))
        board = got[-3].content.decode()
        assert data_version(board) == game.version
        self.coverage["a_pending"] += 'class="hand-card hand-card-pending"' in board
        # Control: the scanner does see cards on A's board, A's own hand among them.
        own = {key for key, place in places.items() if place == (Card.Location.HAND, self.a.pk)}
        assert own and own <= mentioned_cards(board)["data-card"]
        return game.version

    def declarations(self):
        """What the wilds on the table stand for now (0.3), read from the Card rows: ``{(wild key, code)}``."""
        return {(code if copy == 0 else f"{code}~{copy}", stands_for) for code, copy, stands_for in
                Card.objects.filter(deal=current_deal(self.game), location=Card.Location.MELD)
                .exclude(stands_for="").values_list("code", "copy", "stands_for")}

    def check(self, step, responses, secret):
        """No response names a ``secret`` card (symbol form allowed for cards public events named), or
        the game's or a deal's shuffle seed (from which every hand could be computed). What the wilds
        on the table stand for, and what public events said they stood for, is taken out first
        (``without_declarations``)."""
        seeds = [self.game.seed, *Deal.objects.filter(game=self.game).values_list("seed", flat=True)]
        declared = self.declarations() | self.announced_declarations
        visible = {key.partition("~")[0] for key in self.places() if key not in secret}
        for response in responses:
            text, removed = without_declarations(response_text(response), declared)
            self.coverage["declarations"] += len(removed)
            self.coverage["secret_declarations"] += len(set(removed) & secret)
            found = leaks(text, secret, self.announced_keys, visible)
            assert not found, f"step {step}: {response.wsgi_request.path} names {found}"
            assert not [seed for seed in seeds if seed in text], f"step {step}: a seed in {response.wsgi_request.path}"
            self.checked += 1

    @staticmethod
    def announced(events):
        """Cards that public move events named (discards, cards taken from the discard pile, melds
        and lay-offs, and both cards of a wild swap: the natural put on the table and the wild taken
        off it)."""
        for event in events:
            if event["type"] in ("discard", "take_discard", "extra_discard", "play_action"):
                yield event["card"]
            elif event["type"] in ("lay_meld", "lay_off"):
                yield from event["cards"]
            elif event["type"] == "swap_wild":
                yield from (event["card"], event["wild"])

    @staticmethod
    def declared(events):
        """What public move events said wilds stand for (0.3): ``(wild key, code)`` pairs."""
        for event in events:
            if event["type"] in ("lay_meld", "lay_off"):
                yield from event.get("wilds", {}).items()
            elif event["type"] == "swap_wild" and event["stood_for"]:
                yield event["wild"], event["stood_for"]

    def note(self, move):
        """Record what the scan went through, to check it was not trivial."""
        self.announced_keys.update(self.announced(move.events))
        self.announced_declarations.update(self.declared(move.events))
        self.coverage["hands"].add(move.deal_number)
        kinds = [event["type"] for event in move.events]
        self.coverage["wild_melds"] += sum(1 for event in move.events if event.get("wilds"))
        self.coverage["swaps"] += kinds.count("swap_wild")
        self.coverage["action_cards"] += kinds.count("play_action")
        self.coverage["melds"] += kinds.count("lay_meld") + kinds.count("lay_off")
        self.coverage["takes"] += kinds.count("take_discard")
        self.coverage["rebuilds"] += kinds.count("stock_rebuilt")

    def final_checks(self):
        """No draw_stock move's events name any card."""
        for move in Move.objects.filter(game=self.game, action__type="draw_stock"):
            assert not mentioned_cards(json.dumps(move.events))["key"], move.events
            assert all("card" not in event and "cards" not in event for event in move.events)
        return Move.objects.filter(game=self.game).count()


async def run_scan(players, seed, steps, settings, variant="standard"):
    """Play ``steps`` moves of a seeded ``players``-seat game of ``variant``, A watching over a
    websocket too."""
    settings.RUMMY_MOVE_RATE = "100000/m"
    scan = Scan(players, seed, steps, variant)
    a_user = await sync_to_async(scan.setup)()
    stranger = await sync_to_async(make_user)("stranger")
    socket = await open_socket(scan.game.pk, await session_cookie(a_user))
    await open_socket(scan.game.pk, await session_cookie(stranger), expect=False)
    for step in range(steps):
        version = await sync_to_async(scan.step)(step)
        message = await socket.receive_json_from(timeout=3)
        assert message == {"type": "game.changed", "game": scan.game.pk, "version": version}
        assert not any(mentioned_cards(json.dumps(message)).values())
    assert await socket.receive_nothing(timeout=SILENCE)
    await socket.disconnect()
    moves = await sync_to_async(scan.final_checks)()
    assert moves == steps
    print(f"\n{variant}, {players} players, seed {seed}: {steps} moves, {scan.checked} responses checked, "
          f"coverage {scan.coverage}")
    return scan.coverage


@async_db_test
async def test_two_player_game_hides_the_other_hand_and_the_stock(settings):
    coverage = await run_scan(2, "hidden-2-22", 80, settings)
    assert len(coverage["hands"]) >= 2, "the scan should cross into a second hand"
    assert coverage["melds"] and coverage["takes"] and coverage["a_moves"] and coverage["refusals"]


@async_db_test
async def test_three_player_game_hides_the_other_hands_and_the_stock(settings):
    coverage = await run_scan(3, "hidden-3-4", 60, settings)
    assert len(coverage["hands"]) >= 2, "the scan should cross into a second hand"
    assert coverage["melds"] and coverage["takes"] and coverage["a_moves"] and coverage["refusals"]


@async_db_test
async def test_two_player_wild_game_hides_the_other_hand_and_the_stock(settings):
    """Wild Rummy between people: wilds on the table declare cards that are in B's hand or the stock
    (public, 0.3), A and B take discards and swap wilds (pending cards, W6), and a second deal starts."""
    coverage = await run_scan(2, "hidden-wild-2-166", 45, settings, variant="wild")
    assert len(coverage["hands"]) >= 2, "the scan should cross into a second deal"
    assert coverage["wild_melds"], "a meld or lay-off with a wild"
    assert coverage["swaps"] and coverage["a_pending"], "a wild swap, and A with pending cards"
    assert coverage["secret_declarations"], "a wild on the table declared a card in B's hand or the stock"
    assert coverage["melds"] and coverage["takes"] and coverage["a_moves"] and coverage["refusals"]


@async_db_test
async def test_two_player_frayzy_game_hides_the_other_hand_and_the_stock(settings):
    """Frayzy between people: action cards are played (a Draw 5 hands out five cards nobody else may
    see), wilds go on the table standing for cards in B's hand or the stock (public, 0.3)."""
    coverage = await run_scan(2, FRAYZY_SCAN_SEED, 70, settings, variant="frayzy")
    assert coverage["action_cards"] and coverage["draw_fives"], "an action card, and a Draw 5"
    assert coverage["wild_melds"], "a meld or lay-off with a wild"
    assert coverage["melds"] and coverage["takes"] and coverage["a_moves"] and coverage["refusals"]


def test_the_frayzy_forms_are_found_and_wild_declarations_taken_out():
    """Control: each form of a Frayzy card is found, and a Wild's public declaration is taken out."""
    found = mentioned_cards('<span data-card="R7" title="Red 7"></span> SKIP~2 W~3 >W< Blue 12 B12~1 '
                            'Wild=Green 4 "W"')
    assert found["key"] == {"R7", "SKIP~2", "W~3", "B12~1"}
    assert found["symbol"] == {"R7", "B12", "G4"}
    text, removed = without_declarations('title="Wild, standing for Red 10"><span class="card-stands" '
                                         'data-stands-for="R10">=Red 10</span> Wild=Red 10', {("W", "R10")})
    assert removed == ["R10", "R10", "R10"] and "Red 10" not in text and "R10" not in text
    with pytest.raises(AssertionError):
        without_declarations("Wild=Blue 3", {("W", "R10")})


@pytest.mark.django_db
def test_a_spectator_sees_no_hand_and_no_stock():
    game = make_started_game(players=3, seed="hidden-spectator")
    play_moves(game, 40, seed="hidden-spectator")
    deal = current_deal(game)
    secret = {(code if copy == 0 else f"{code}~{copy}") for code, copy in
              Card.objects.filter(deal=deal, location__in=[Card.Location.HAND, Card.Location.STOCK])
              .values_list("code", "copy")}
    public = {(code if copy == 0 else f"{code}~{copy}") for code, copy in
              Card.objects.filter(deal=deal, location=Card.Location.MELD).values_list("code", "copy")}
    announced = {key for move in Move.objects.filter(game=game) for key in Scan.announced(move.events)}
    client = login(make_user("spectator"))

    for response in (client.get(game.get_absolute_url()),
                     client.get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"})):
        assert response.status_code == 200
        assert not leaks(response_text(response), secret, announced)
        assert game.seed not in response.content.decode() and deal.seed not in response.content.decode()
        assert 'name="cards"' not in response.content.decode()
        # Control: the table's public cards are there.
        assert public and public <= mentioned_cards(response.content.decode())["data-card"]
