"""The outlook against its anchor, nekobean/mahjong-cpp, on the same hands in one run.

Run on demand (`python tests/bench/bench_outlook_anchor.py`), never in the suite. For each
family and shanten (1 and 2) it takes the hands of tests/bench/bench_outlook.py (seeded, 14
tiles, no melds), weighs every discard with this project's outlook (cold: its caches emptied)
and with mahjong-cpp's `ExpectedScoreCalculator` (C++, riichi, built here), and prints each
side's CPU time a hand, the states each searched, the time per state and the ratio.

States are counted as mahjong-cpp counts its graph's vertices: each hand of 13 tiles waiting for
a draw and each of 14 tiles choosing a discard, once. The anchor runs in the configuration
nearest this outlook's model: the same number of draws, a draw kept only when it lowers the
shanten (`extra = 0`, no shanten down, no exchanges at the same shanten), no red fives, no
hidden dora; in the families without honours, no honour is in its wall. Its scoring is riichi's,
so the two sides' values differ; the work searched is what is compared.

mahjong-cpp is GPL-3.0: none of its code is in this repository. The bench builds it at run
time, in a cache folder (MAHJONG_CPP_BUILD, default ~/.cache/mahjong-calculator-bench), from
a checkout named by MAHJONG_CPP_SRC, else from a shallow `git clone` of its public repository.
It needs g++ (C++17), Boost 1.81 or later (headers and Boost.Filesystem), RapidJSON and spdlog:
on Debian 12, `apt-get install g++ libboost1.81-dev libboost-filesystem1.81-dev rapidjson-dev
libspdlog-dev`. When one is missing it says which and exits 0 without a ratio. Its tables of
shanten by suit (data/config/suits_table.bin, not kept in its repository) are made once, in its
own format by a small program of this project's (SUITS_TABLE below), in a minute or two.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.advice.outlook import _CACHE, DEFAULT_DRAWS, outlook  # noqa: E402
from app.hands import quick  # noqa: E402
from app.hands.efficiency import clear_tables  # noqa: E402
from app.rules.loader import registry  # noqa: E402
from app.vocabulary.discard import calculate_discards  # noqa: E402
from tests.advice.outlook_hands import FAMILIES, dealt  # noqa: E402

HANDS = int(os.environ.get("BENCH_HANDS", "15"))
REPEATS = int(os.environ.get("BENCH_ANCHOR_REPEATS", "3"))   # each side's runs a hand (median)
REPOSITORY = "https://github.com/nekobean/mahjong-cpp"
BUILD = Path(os.environ.get("MAHJONG_CPP_BUILD",
                            Path.home() / ".cache" / "mahjong-calculator-bench"))

# The anchor's driver (this project's code): one hand a line, "<tiles in mpsz> <draws>
# <honours 0/1> <repeats>", answered "<median CPU microseconds> <vertices searched> <the
# fewest tiles from ready a discard leaves>".
DRIVER = r"""
#include <algorithm>
#include <ctime>
#include <iostream>
#include <numeric>
#include <vector>
#include "mahjong/mahjong.hpp"
using namespace mahjong;
int main()
{
    std::string tiles;
    int draws, honours, repeats;
    while (std::cin >> tiles >> draws >> honours >> repeats) {
        TableConfig table_config;
        table_config.rule_flags = RuleFlag::Default;
        table_config.game_mode = GameMode::Yonma;
        RoundState round;
        round.round_wind = Tile::East;
        round.round_number = 1;
        round.honba = 0;
        TableState table;
        table.kyotaku = 0;
        PlayerState player;
        player.hand = from_mpsz(tiles);
        player.seat_wind = Tile::East;
        ExpectedScoreCalculator::Config config;
        config.t_max = draws;
        config.extra = 0;
        config.enable_reddora = false;
        config.enable_uradora = false;
        config.enable_shanten_down = false;
        config.enable_tegawari = false;
        MergedCount wall = create_wall(table_config, table, player, config.enable_reddora);
        if (!honours) {
            for (int i = 27; i < 34; ++i) wall[i] = 0;
        }
        config.sum = std::accumulate(wall.begin(), wall.begin() + 34, 0);
        std::vector<double> times;
        int searched = 0, shanten = 99;
        for (int r = 0; r < repeats; ++r) {
            const std::clock_t start = std::clock();
            const auto found = ExpectedScoreCalculator::calc(config, table_config, round,
                                                             table, player, wall);
            times.push_back(1e6 * (std::clock() - start) / CLOCKS_PER_SEC);
            searched = std::get<1>(found);
            for (const auto &stat : std::get<0>(found)) shanten = std::min(shanten, stat.shanten);
        }
        std::sort(times.begin(), times.end());
        std::cout << times[times.size() / 2] << " " << searched << " " << shanten << std::endl;
    }
}
"""

# mahjong-cpp's table of shanten by suit (data/config/suits_table.bin, not kept in its
# repository; its own tool makes it by trying every winning pattern against every count, hours
# of one core here): made instead by this project's program, to the same format. For each
# counts x of one suit's nine kinds holding at most 14 tiles (key: x in base 5, first kind
# first), ten values, one for each size of winning pattern (3k tiles: k; 3k + 2: 5 + k): the
# fewest tiles to add to x to hold such a pattern (bits 0-3), the kinds one of the nearest
# patterns holds more of (bits 4-12) and fewer of (bits 13-21).
SUITS_TABLE = r"""
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
static int kinds = 9, runs = 7;   // the honours' table (kinds 7, no runs) checks the program
static std::vector<std::vector<int>> wins[10];
static void add_sets(std::vector<int> c, int sets, int from, int heads)
{
    for (int n : c) if (n > 4) return;
    int tiles = 0;
    for (int n : c) tiles += n;
    wins[tiles / 3 + (tiles % 3 ? 5 : 0)].push_back(c);
    if (heads == 0) {   // the pair first, then the sets in order
        for (int i = 0; i < kinds; ++i) { auto d = c; d[i] += 2; add_sets(d, sets, 0, 1); }
    }
    if (sets == 4) return;
    for (int k = from; k < runs + kinds; ++k) {
        auto d = c;
        if (k < runs) { d[k] += 1; d[k + 1] += 1; d[k + 2] += 1; } else { d[k - runs] += 3; }
        add_sets(d, sets + 1, k, 1);
    }
}
int main(int argc, char **argv)
{
    if (argc > 2 && std::strcmp(argv[2], "honors") == 0) { kinds = 7; runs = 0; }
    add_sets(std::vector<int>(kinds, 0), 0, 0, 0);
    std::vector<std::uint8_t> soa[10][9];
    for (int g = 0; g < 10; ++g)
        for (const auto &w : wins[g])
            for (int i = 0; i < kinds; ++i) soa[g][i].push_back(static_cast<std::uint8_t>(w[i]));
    std::FILE *out = std::fopen(argv[1], "wb");
    std::vector<std::uint8_t> deficit;
    std::int32_t keys = 1;
    for (int i = 0; i < kinds; ++i) keys *= 5;
    for (std::int32_t key = 0; key < keys; ++key) {
        int x[9], rest = key, tiles = 0;
        for (int i = kinds - 1; i >= 0; --i) { x[i] = rest % 5; rest /= 5; tiles += x[i]; }
        if (tiles > 14) continue;
        std::int32_t values[10];
        for (int g = 0; g < 10; ++g) {
            const std::size_t n = soa[g][0].size();
            deficit.assign(n, 0);
            for (int i = 0; i < kinds; ++i) {
                const std::uint8_t *w = soa[g][i].data();
                const std::uint8_t h = static_cast<std::uint8_t>(x[i]);
                for (std::size_t j = 0; j < n; ++j)
                    deficit[j] += w[j] > h ? static_cast<std::uint8_t>(w[j] - h) : 0;
            }
            std::uint8_t least = 255;
            for (std::size_t j = 0; j < n; ++j) least = deficit[j] < least ? deficit[j] : least;
            std::int32_t more = 0, fewer = 0;
            for (std::size_t j = 0; j < n; ++j) {
                if (deficit[j] != least) continue;
                for (int i = 0; i < kinds; ++i) {
                    if (soa[g][i][j] > x[i]) more |= 1 << i;
                    else if (soa[g][i][j] < x[i]) fewer |= 1 << i;
                }
            }
            values[g] = least | (more << 4) | (fewer << 13);
        }
        std::fwrite(&key, sizeof key, 1, out);
        std::fwrite(values, sizeof values, 1, out);
    }
    return std::fclose(out) != 0;
}
"""


class Skip(Exception):
    """The anchor cannot be built here: why."""


def _run(args: list[str], cwd: Path | None = None, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, **kw)
    if done.returncode:
        raise Skip(f"{' '.join(args[:3])} … failed:\n{done.stderr[-2000:]}")
    return done


def _flags(package: str) -> list[str]:
    found = subprocess.run(["pkg-config", "--cflags", "--libs", package], capture_output=True,
                           text=True)
    return found.stdout.split() if found.returncode == 0 else []


def _source() -> Path:
    named = os.environ.get("MAHJONG_CPP_SRC")
    if named:
        src = Path(named)
        if not (src / "src" / "mahjong").is_dir():
            raise Skip(f"MAHJONG_CPP_SRC={named} holds no src/mahjong")
        return src
    src = BUILD / "mahjong-cpp"
    if not (src / "src" / "mahjong").is_dir():
        if shutil.which("git") is None:
            raise Skip("no git to download mahjong-cpp (or name a checkout in MAHJONG_CPP_SRC)")
        BUILD.mkdir(parents=True, exist_ok=True)
        try:
            _run(["git", "clone", "--depth", "1", REPOSITORY, str(src)], timeout=300)
        except (Skip, subprocess.TimeoutExpired) as err:
            raise Skip(f"cannot download mahjong-cpp ({err}); name a checkout in"
                       " MAHJONG_CPP_SRC") from None
    return src


def _check_toolchain() -> None:
    if shutil.which("g++") is None:
        raise Skip("no C++ toolchain (g++)")
    probe = "#include <boost/version.hpp>\n#if BOOST_VERSION < 108100\n#error old\n#endif\n" \
            "#include <boost/unordered/unordered_flat_map.hpp>\n#include <boost/dll.hpp>\n" \
            "#include <rapidjson/document.h>\n#include <spdlog/spdlog.h>\nint main(){}\n"
    done = subprocess.run(["g++", "-std=c++17", "-x", "c++", "-fsyntax-only", "-"], input=probe,
                          capture_output=True, text=True)
    if done.returncode:
        raise Skip("Boost >= 1.81, RapidJSON or spdlog headers missing (Debian 12: apt-get"
                   " install libboost1.81-dev libboost-filesystem1.81-dev rapidjson-dev"
                   " libspdlog-dev)")


def build() -> Path:
    """The anchor's driver, built (once) with the shanten tables beside it; Skip if it cannot."""
    _check_toolchain()
    src = _source()
    out = BUILD / "out"
    driver = out / "outlook_anchor"
    if driver.exists() and (out / "suits_table.bin").exists():
        return driver
    out.mkdir(parents=True, exist_ok=True)
    (out / "driver.cpp").write_text(DRIVER)
    core = sorted(str(p) for p in (src / "src" / "mahjong").rglob("*.cpp"))
    libs = ["-lboost_filesystem", "-ldl", *(_flags("spdlog") or ["-lspdlog", "-lfmt"])]
    common = ["g++", "-std=c++17", "-O2", "-DNDEBUG", f"-I{src / 'src'}"]
    print("building mahjong-cpp (a minute or two) …", flush=True)
    _run([*common, *core, str(out / "driver.cpp"), "-o", str(driver), *libs])
    config = src / "data" / "config"
    for table in (*config.glob("*.json"), *config.glob("*.bin")):
        if table.stat().st_size > 1000:   # a table left out of a checkout is no table
            shutil.copy(table, out / table.name)
    if not (out / "suits_table.bin").exists():
        maker = out / "suits_table"
        (out / "suits_table.cpp").write_text(SUITS_TABLE)
        _run(["g++", "-std=c++17", "-O3", "-march=native", str(out / "suits_table.cpp"), "-o",
              str(maker)])
        print("making its table of shanten by suit (a minute or two) …", flush=True)
        _run([str(maker), str(out / "suits_table.bin")])
    return driver


def mpsz(counts) -> str:
    """Tile counts in mahjong-cpp's notation (e.g. 123m55z).

    >>> mpsz([1, 1, 1] + [0] * 28 + [2, 0, 0])
    '123m55z'
    """
    said = ""
    for s, suit in enumerate("mpsz"):
        ranks = "".join(str(r + 1) * counts[9 * s + r] for r in range(9 if s < 3 else 7))
        said += f"{ranks}{suit}" if ranks else ""
    return said


def ours(result, rulesets) -> tuple[float, int]:
    """The outlook of one analysed hand, cold: the median CPU ms of REPEATS runs (as the
    anchor's), and the vertices searched."""
    runs = []
    for _ in range(REPEATS):
        _CACHE.clear()
        clear_tables()
        quick.clear_tables()
        cpu = time.process_time()
        found = outlook(result, DEFAULT_DRAWS, rulesets)
        runs.append(1000 * (time.process_time() - cpu))
    return statistics.median(runs), found.vertices


def main() -> int:
    rulesets = registry()
    try:
        driver = build()
    except Skip as why:
        print(f"skipped: the anchor was not built: {why}")
        return 0
    anchor = subprocess.Popen([str(driver)], cwd=driver.parent, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    print(f"outlook over {DEFAULT_DRAWS} draws, {HANDS} hands a family and shanten, CPU time;"
          f" load average {os.getloadavg()[0]:.1f}")
    print(f"{'family':18} {'shanten':>7} {'ours ms':>8} {'cpp ms':>7} {'ours st':>7} "
          f"{'cpp st':>7} {'ours µs/st':>10} {'cpp µs/st':>9} {'ratio':>6} {'worst':>6}")
    worst = 0.0
    differ = 0   # hands whose shanten the two count otherwise (its forms are riichi's)
    for shanten in (1, 2):
        for rules in FAMILIES:
            rows = []
            for params in dealt(rules, shanten, HANDS, rulesets):
                result = calculate_discards(params, rulesets)
                if result.hand.melds:
                    continue
                ms, states = ours(result, rulesets)
                anchor.stdin.write(f"{mpsz(result.hand.concealed_counts)} {DEFAULT_DRAWS} "
                                   f"{int(result.ruleset.honours)} {REPEATS}\n")
                anchor.stdin.flush()
                said = anchor.stdout.readline()
                while said.startswith("["):   # its log (the tables loaded)
                    said = anchor.stdout.readline()
                us, searched, shanten_there = said.split()
                rows.append((ms, states, float(us) / 1000, int(searched)))
                differ += int(shanten_there) != result.shanten
            per = [(1000 * ms / st) / (1000 * cms / cst) for ms, st, cms, cst in rows]
            ratio = statistics.median(per)
            worst = max(worst, ratio)
            print(f"{rules:18} {shanten:>7} {statistics.median(r[0] for r in rows):>8.1f} "
                  f"{statistics.median(r[2] for r in rows):>7.2f} "
                  f"{int(statistics.median(r[1] for r in rows)):>7} "
                  f"{int(statistics.median(r[3] for r in rows)):>7} "
                  f"{statistics.median(1000 * r[0] / r[1] for r in rows):>10.1f} "
                  f"{statistics.median(1000 * r[2] / r[3] for r in rows):>9.2f} "
                  f"{ratio:>5.1f}× {max(per):>5.1f}×", flush=True)
    anchor.stdin.close()
    anchor.wait()
    print(f"per state, ours against mahjong-cpp: at most {worst:.1f}× (median of each row's"
          f" hands; target <= 8×); load average {os.getloadavg()[0]:.1f}")
    print(f"hands whose shanten mahjong-cpp counts otherwise (riichi's forms): {differ}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
