// The usage lines and help of the commands that talk to a server, apart from their code: `sextant`
// loads a command's code (and the API schemas with it) only when that command runs.
import { FORMATS } from '@sextant/coverage';

export const UPLOAD_USAGE =
  'sextant upload FILE... --server URL --token T --app NAME --commit SHA --env ENV --test-type 1|2 ' +
  `[--case KEY] [--agent-id ID] [--format auto|${FORMATS.join('|')}|jacoco-exec] [--base-dir FOLDER] [--classes DIR|JAR]`;

export const AGENT_USAGE =
  'sextant agent --server URL --token T --app NAME --env ENV --watch GLOB... [--interval 30s] ' +
  '[--jacoco HOST:PORT --classes DIR|JAR [--jacoco-convert server|local] [--jacoco-lib DIR]] ' +
  '[--agent-id ID] [--commit SHA] [--test-type 1|2] [--base-dir FOLDER] [--once]';

export const DEMO_USAGE =
  'sextant demo [--server URL] [--token T | --user NAME --password P] [--data-dir DIR] [--repos-dir DIR] [--remove] [--timeout SECONDS]';

export const DEMO_HELP = `${DEMO_USAGE}

Loads the demo workspace into a running server through its public API: a team, a Java and a
TypeScript app with real git repositories (made in --repos-dir, which the server must be able to
read), a project with two versions, requirements, test cases, coverage made by JaCoCo and c8 for
unit and functional runs, and full and incremental reports, waited for until they finish.
Running it again changes nothing; --remove deletes all of it.

  --server URL       the server (default http://localhost:8080)
  --token T          an access token of a user allowed to administer
  --user, --password sign in instead (default user admin; the password defaults to
                     SEXTANT_ADMIN_PASSWORD, else DATA_DIR/initial-admin-password)
  --data-dir DIR     the server's data directory when it runs here (default ./data)
  --repos-dir DIR    where the demo repositories go (default DATA_DIR/demo-repos; another
                     folder must be in the server's SEXTANT_REPO_PATHS)
  --remove           delete the demo workspace
  --timeout SECONDS  longest wait for the reports (default 600)
`;
