"""A throw-away WordPress for the tests: Debian's package on loopback, its own database.

`make test` installs Debian's `wordpress` with MariaDB's server and PHP's command line when they
are missing (`make wordpress`). `WordPress` starts, on free loopback ports, a MariaDB of its own
(`mariadb-install-db` into a temporary folder, its own socket) and PHP's built-in web server
(`php -S`) serving Debian's /usr/share/wordpress unchanged, runs WordPress's installer
(`wp_install()`) from PHP's command line, and stops both afterwards.

Debian's wp-config.php reads its settings from /etc/wordpress/config-<name>.php, the name taken
from the server's `WORDPRESS_CONFIG` variable when set (the package's way to pick a file; the
web server's router sets it, as Apache's `SetEnv` would): the site writes one under a name only
this run knows and removes it when it stops. Its settings are the
ones any WordPress has, plus WordPress's own `WP_HTTP_BLOCK_EXTERNAL` (no call leaves the
machine) with the calculator's loopback host in `WP_ACCESSIBLE_HOSTS`. A must-use plugin adds
WordPress's own filters for a loopback provider: `http_request_host_is_external` (127.0.0.1 is
a provider here) and `http_allowed_safe_ports` (the calculator's port). Nothing else changes.
"""
from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.waiting import free_port, stop_group, wait_until_up

WORDPRESS = Path("/usr/share/wordpress")
CONFIGS = Path("/etc/wordpress")
AUTHOR = "lesson-author"


def _command(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if not found or not (WORDPRESS / "wp-settings.php").exists():
        raise RuntimeError(f"{name} or Debian's WordPress is missing: `make wordpress` installs "
                           "wordpress, mariadb-server and php-cli")
    return found


class WordPress:
    """One running site at `url`; `php()` runs code inside it from the command line."""

    def __init__(self, provider_port: int, host: str = "localhost") -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="mahjong-wp-"))
        self.name = "mahjong-test-" + secrets.token_hex(6)
        self.config = CONFIGS / f"config-{self.name}.php"
        self.db_port, self.port = free_port(), free_port()
        self.host = f"{host}:{self.port}"
        self.url = f"http://{self.host}"
        self.password = secrets.token_urlsafe(12)
        self.provider_port = provider_port
        self.procs: list[subprocess.Popen] = []

    # -- start and stop -------------------------------------------------------------------
    def start(self) -> WordPress:
        try:
            self._start_database()
            self._write_config()
            self._start_web_server()
            self._install()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for proc in reversed(self.procs):   # each its own group: php -S forks its workers
            stop_group(proc)
        self.procs.clear()
        self.config.unlink(missing_ok=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _start_database(self) -> None:
        data, socket = self.folder / "db", self.folder / "db.sock"
        user = ["--user=root"] if _is_root() else []
        subprocess.run([_command("mariadb-install-db"), "--no-defaults", f"--datadir={data}",
                        "--auth-root-authentication-method=normal", "--skip-test-db", *user],
                       check=True, capture_output=True, timeout=120)
        init = self.folder / "init.sql"
        init.write_text("CREATE DATABASE IF NOT EXISTS wordpress;\n"
                        f"CREATE USER IF NOT EXISTS 'wordpress'@'127.0.0.1' "
                        f"IDENTIFIED BY '{self.password}';\n"
                        "GRANT ALL ON wordpress.* TO 'wordpress'@'127.0.0.1';\n")
        log = open(self.folder / "db.log", "w")   # noqa: SIM115 - the server's whole life
        self.procs.append(subprocess.Popen(
            [_command("mariadbd"), "--no-defaults", f"--datadir={data}", f"--socket={socket}",
             f"--port={self.db_port}", "--bind-address=127.0.0.1", f"--init-file={init}",
             f"--pid-file={self.folder / 'db.pid'}", "--skip-log-bin", "--skip-name-resolve",
             "--innodb-buffer-pool-size=32M", *user], stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True))
        deadline = time.monotonic() + 60
        while "ready for connections" not in (self.folder / "db.log").read_text():
            if self.procs[-1].poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("MariaDB did not start:\n" + (self.folder / "db.log").read_text())
            time.sleep(0.1)

    def _write_config(self) -> None:
        plugins = self.folder / "mu-plugins"
        plugins.mkdir()
        (plugins / "loopback-provider.php").write_text(f"""<?php
/* The calculator runs on this machine's loopback: let WordPress's oEmbed discovery reach it. */
add_filter('http_request_host_is_external', function ($external, $host) {{
    return $external || $host === '127.0.0.1';
}}, 10, 2);
add_filter('http_allowed_safe_ports', function ($ports) {{
    return array_merge($ports, array({self.provider_port}));
}});
""")
        keys = "\n".join(f"define('{key}', '{secrets.token_hex(24)}');" for key in (
            "AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY", "AUTH_SALT",
            "SECURE_AUTH_SALT", "LOGGED_IN_SALT", "NONCE_SALT"))
        self.config.write_text(f"""<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', '{self.password}');
define('DB_HOST', '127.0.0.1:{self.db_port}');
define('WP_HOME', '{self.url}');
define('WP_SITEURL', '{self.url}');
define('WPMU_PLUGIN_DIR', '{plugins}');
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_ACCESSIBLE_HOSTS', '127.0.0.1');
{keys}
""")
        self.config.chmod(0o600)

    def _start_web_server(self) -> None:
        router = self.folder / "router.php"
        router.write_text(_ROUTER.replace("NAME", self.name).replace("ROOT", str(WORDPRESS)))
        log = open(self.folder / "php.log", "w")   # noqa: SIM115 - the server's whole life
        env = {"PATH": "/usr/bin:/bin", "PHP_CLI_SERVER_WORKERS": "4"}
        self.procs.append(subprocess.Popen(
            [_command("php"), "-S", f"127.0.0.1:{self.port}", "-t", str(WORDPRESS), str(router)],
            cwd=WORDPRESS, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        wait_until_up(f"http://127.0.0.1:{self.port}/wp-includes/js/wp-embed.js", self.procs[-1])

    def _install(self) -> None:
        self.author_password = secrets.token_urlsafe(12)
        self.php(f"""
            define('WP_INSTALLING', true);
            {_LOAD}
            require_once ABSPATH . 'wp-admin/includes/upgrade.php';
            $done = wp_install('Mahjong lessons', 'teacher', 'teacher@example.org', false, '',
                               wp_generate_password());
            global $wp_rewrite;
            $wp_rewrite->set_permalink_structure('/%postname%/');
            $wp_rewrite->flush_rules(false);
            $author = wp_insert_user(array('user_login' => '{AUTHOR}', 'role' => 'author',
                'user_pass' => '{self.author_password}', 'user_email' => 'author@example.org'));
            if (is_wp_error($author)) {{ fwrite(STDERR, $author->get_error_message()); exit(1); }}
            echo json_encode($done['user_id']);
        """, load=False)

    # -- inside the site ------------------------------------------------------------------
    def php(self, code: str, load: bool = True) -> object:
        """Run PHP in the site (WordPress loaded unless `load` is False); what it echoes, as
        JSON."""
        script = self.folder / f"run-{secrets.token_hex(4)}.php"
        script.write_text("<?php\n$_SERVER['HTTP_HOST'] = '" + self.host + "';\n"
                          "$_SERVER['REQUEST_URI'] = '/';\n"
                          "$_SERVER['WORDPRESS_CONFIG'] = '" + self.name + "';\n"
                          + (_LOAD if load else "") + code)
        env = {"PATH": "/usr/bin:/bin"}
        try:
            done = subprocess.run([_command("php"), str(script)], cwd=WORDPRESS, env=env,
                                  capture_output=True, text=True, timeout=120)
        finally:
            script.unlink()
        if done.returncode != 0:
            raise RuntimeError(f"PHP failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return json.loads(done.stdout)

    def publish_as_author(self, title: str, content: str) -> str:
        """A post the Author role publishes (kses filters it as WordPress does on save); its
        address."""
        return self.php(f"""
            $author = get_user_by('login', '{AUTHOR}');
            wp_set_current_user($author->ID);
            $id = wp_insert_post(wp_slash(array('post_title' => {_php_string(title)},
                'post_content' => {_php_string(content)}, 'post_status' => 'publish')), true);
            if (is_wp_error($id)) {{ fwrite(STDERR, $id->get_error_message()); exit(1); }}
            echo json_encode(get_permalink($id));
        """)

    def log(self) -> str:
        return (self.folder / "php.log").read_text(errors="replace")


# What Debian's Apache set-up does for WordPress, for PHP's built-in server: the site's
# `SetEnv WORDPRESS_CONFIG` (README.Debian), and the rewrite rules that send every address that
# is not a file to index.php (pretty permalinks, /wp-json/).
_ROUTER = """<?php
$_SERVER['WORDPRESS_CONFIG'] = 'NAME';
$path = rawurldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH));
if (is_dir('ROOT' . $path) && is_file('ROOT' . rtrim($path, '/') . '/index.php')) {
    $path = rtrim($path, '/') . '/index.php';
}
if (is_file('ROOT' . $path) && substr($path, -4) !== '.php') {
    return false;
}
if (!is_file('ROOT' . $path) || strpos($path, '..') !== false) {
    $path = '/index.php';
}
$_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = $path;
$_SERVER['SCRIPT_FILENAME'] = 'ROOT' . $path;
chdir(dirname('ROOT' . $path));
require 'ROOT' . $path;
"""

_LOAD = "require_once '" + str(WORDPRESS / "wp-load.php") + "';\n"


def _php_string(text: str) -> str:
    """A PHP string literal for any text (JSON's escapes, decoded by PHP)."""
    return "json_decode(" + "'" + json.dumps(text).replace("\\", "\\\\").replace("'", "\\'") + "')"


def _is_root() -> bool:
    import os
    return os.geteuid() == 0
