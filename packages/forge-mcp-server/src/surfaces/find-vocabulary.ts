/**
 * The words people use for the catalog's operations and objects, as tables the ranker (find.ts) reads:
 * the operation a request's verb asks for, the catalog's own words for the everyday names of things,
 * and the abbreviations both sides write.
 */

/**
 * Another platform's names for this instance's things, read as this instance's in requests and in the catalog's
 * texts alike, before anything else: a workflow run is a pipeline, a repository secret a CI/CD variable, a branch
 * protection rule a protected branch, an app password a personal access token. (A pull request stays as typed:
 * the everyday phrasings say it, and a request saying it names a thing, THING_NAMES, not a verb.)
 */
export const OTHER_PLATFORM_NAMES: Array<[RegExp, string]> = [
  [/\bworkflow run(s?)\b/g, 'pipeline$1'],
  [/\bbranch protection(?: rule| rules| settings?)?\b/g, 'protected branch'],
  [/\b(?:repository|repo|action|actions|environment|deployment) secret(s?)\b/g, 'ci variable$1'],
  [/\b(?:org|organization|organisation) secret(s?)\b/g, 'group ci variable$1'],
  [/\bapp password(s?)\b/g, 'personal access token$1'],
  [
    /\b(?:fine-grained|finegrained|fine grained|classic) (?:personal access )?token(s?)\b/g,
    'personal access token$1',
  ],
];

/**
 * Verbs of more than one word, as the one word the tables know: "get rid of" is deleting, "spin up" creating.
 * The word between a verb and its particle ("kick bob out") is kept.
 */
export const PHRASAL_VERBS: Array<[RegExp, string]> = [
  [/\bget rid of\b/g, 'delete'],
  [/\bspin up\b/g, 'create'],
  [/\broll back\b/g, 'revert'],
  [/\bhook up\b/g, 'setup'],
  [/\bset up\b/g, 'setup'],
  [/\bclean up\b/g, 'cleanup'],
  [/\bkick (\w+ )?out( of)?\b/g, 'remove $1from'],
  [/\btake (\w+ )?out of\b/g, 'remove $1from'],
  [/\bpush (\w+ )?(\w+ )?(\w+ )?back\b/g, 'postpone $1$2$3'],
  [/\bre-(run|try|open|start)\b/g, 're$1'],
  // Switches: "switch it off", "flip the flag on".
  [/\b(?:switch|flip|toggle|turn) (\w+ )?(\w+ )?(\w+ )?on\b/g, 'enable $1$2$3'],
  [/\b(?:switch|flip|toggle|turn) (\w+ )?(\w+ )?(\w+ )?off\b/g, 'disable $1$2$3'],
  [/\b(?:kick|fire|set) off\b/g, 'start'],
  [/\bsign off on\b/g, 'approve'],
  [/\b(?:get|be|stay|keep me) notified\b/g, 'subscribe'],
  [/\bsign off\b/g, 'approve'],
  [/\btake back\b/g, 'revoke'],
  [/\bbring (\w+ )?(\w+ )?(\w+ )?back\b/g, 'restore $1$2$3'],
  // Letting someone back in undoes what kept them out.
  [/\blet (\w+ )?(#?\w+ )?back in\b/g, 'reactivate $1$2'],
  // Another go at a job or pipeline retries it.
  [
    /\bgive (\w+ )?(\w+ )?(#?\w+ )?(?:another|a second|one more) (?:go|try|shot|spin|chance)\b/g,
    'retry $1$2$3',
  ],
  [/\block (\w+ )?out\b/g, 'block $1'],
  [/\bdouble-?check\b/g, 'check'],
  [/\bhand (\w+ )?(\w+ )?over\b/g, 'transfer $1$2'],
  [/\bturn (\w+ )?down\b/g, 'reject $1'],
  [/\block (\w+ )?down\b/g, 'protect $1'],
  [/\bcheck out\b/g, 'show'],
  [/\btake (\w+ )?(\w+ )?(\w+ )?off\b/g, 'remove $1$2$3from'],
  [/\blook at\b/g, 'show'],
  [/\bthumbs?[- ]?(up|down)\b/g, 'thumbs$1'],
  [/\bauto-?merge\b/g, 'automerge'],
  [/\broll (\w+ )?(\w+ )?(\w+ )?(\w+ )?out\b/g, 'rollout $1$2$3$4'],
  // What someone is working on or up to: their activity.
  [/\b(is|are) (\w+ )?(\w+ )?(?:working on|up to)\b/g, '$2$3activity'],
  // "Is the server up?": whether it answers, not a thing named up.
  [/\b(is|are) (the )?(\w+ )(up|down|responding)\b/g, '$1 $2$3reachable'],
  [/\bup and running\b/g, 'reachable'],
  // "What have I been up to": someone's recent activity.
  [/\bbeen (up to|doing|working on)\b/g, 'activity'],
  [/\b(?:did|have) (i|we) (?:do|done|work on|worked on)\b/g, '$1 activity'],
  // Stopping deployments for a while is a deploy freeze.
  [
    /\b(?:block|pause|halt|stop|hold off|suspend|prevent|no) (\w+ )?(?:deploy(?:ment)?s|releases)\b/g,
    'freeze $1deployments',
  ],
  // "Mark the commit as v1.2" (the version itself is no word searched): a commit named as a version is tagged.
  [
    /\b(?:mark|label|stamp|version|name) (\w+ )?(\w+ )?commit (\w+ )?as(?= *(?:$|\d|version|release))/g,
    'tag $1$2commit $3as',
  ],
  [/\bgive (\w+ )?go-?ahead\b/g, 'approve'],
  [/\bgreen-?light\b/g, 'approve'],
  // Kinds of branch people name by their use: still branches.
  [/\b(?:feature|topic|hotfix|bugfix) (branch(?:es)?)\b/g, '$1'],
  // How long a pipeline or job ran: its duration, on the thing itself.
  [
    /\bhow long (?:did|does|has|was|will|is) (?:the )?(pipeline|job|build|deploy|deployment|run)\b/g,
    'show $1 duration',
  ],
  [/\bhow long\b/g, 'how much time'],
  [/\bon my plate\b/g, 'my todo'],
  // Never deleting a thing keeps it.
  [/\bnever (?:delete|expire|remove|erase|purge|clean ?up)\b/g, 'keep'],
  [/\bdo(?:n'?t| not) (?:delete|expire|remove|erase|purge|clean ?up)\b/g, 'keep'],
  // "Flag MR 12 as ready": marking it so.
  [/\bflag (\w+ )?(\w+ )?(\w+ )?as\b/g, 'mark $1$2$3as'],
  // Notifications about one issue or merge request (not a whole project's settings): following it or not.
  [
    /\b(?:enable|receive|start getting) +(?:email )?(?:notifications|emails|alerts) (?:for|on|about|from) (?=(?:the |this )?(?:issue|merge request|mr|pr|pull request|epic)s?\b)/g,
    'subscribe to ',
  ],
  [
    /\b(?:disable|stop|mute|silence)(?: getting| receiving)? +(?:email |the )?(?:notifications|emails|alerts|pings) (?:for|on|about|from) (?=(?:the |this )?(?:issue|merge request|mr|pr|pull request|epic)s?\b)/g,
    'unsubscribe from ',
  ],
  // One issue blocking, blocked by, duplicating or relating to another: a link between the two.
  [
    /\b(?:mark|set|make) (\w+ )?(#?\w+ )?as (?:blocking|blocked by|related to|relating to|(?:a )?duplicate of|depending on)\b/g,
    'link $1$2to',
  ],
  [
    /\b(issue) (#?\d+ )(?:is blocked by|is blocking|blocks|depends on|is related to|relates to|duplicates|is a duplicate of|is a copy of|is the same as)\b/g,
    'link $1 $2to',
  ],
  // A branch made read-only or locked is protected (a project made read-only is archived).
  [
    /\b(?:make|set|keep) (?:the )?(main|master|trunk|develop|default branch|release branch|\w+ branch)(?: branch)? (?:read-?only|locked)\b/g,
    'protect branch $1',
  ],
  // A feature of the project or group switched on or off ("turn off the wiki for the project"): its settings.
  [
    /\b(?:enable|disable) +(?:the )?(wiki|issues|issue tracker|merge requests|pipelines|ci|ci\/cd|snippets|container registry|package registry|packages|lfs|pages|requirements|releases|environments|forking|forks|analytics|service desk|squash|merge trains|shared runners)(?: feature)? (?:for|on|in) (?:the |this |my |our )?(project|repo|repository|group)\b/g,
    'update $2 settings',
  ],
  // Release notes written for a version are its changelog.
  [/\b(?:write|draft|generate|compose|prepare) (?:the |some |up )?release ?notes\b/g, 'generate changelog'],
  // Who may deploy to an environment is its protection; a release sent to production runs its deploy job.
  [
    /\b(who can|who may|who is allowed to|allowed to|permission to) deploy(?: to)?\b/g,
    'protected environment access of',
  ],
  // Who may push or merge to a branch, or create a tag: its protection.
  [
    /\b(?:who can|who may|who is allowed to|allowed to|permission to|rights to) (push|merge|force-?push)(?: to| into)?\b/g,
    'protected branch $1 access of',
  ],
  [
    /\b(?:who can|who may|who is allowed to|allowed to|permission to) create (?:the )?(\w+ )?tags?\b/g,
    'protected tag $1create access',
  ],
  // "Who reacted to it": its reactions, all of them.
  [
    /\bwho (?:reacted|upvoted|downvoted|liked|gave (?:it )?(?:an? )?(?:thumbs ?up|thumbsup|thumbs-up|emoji|reaction|heart|star))\b/g,
    'list reactions',
  ],
  // "Who closed issue 9": when its state changed, and by whom.
  [/\bwho (closed|reopened|merged|locked|unlocked)\b/g, 'state events of $1 by whom'],
  // Pushes to a branch refused, or allowed only to some: the branch's protection (what they hold: push rules).
  [
    /\b(?:no more|no|block|stop|prevent|forbid|disallow|deny|refuse) (\w+ )?(?:from )?(?:any |all |direct )*(?:push(?:es|ing)?|force-?push(?:es|ing)?|merg(?:es|ing)) (?:directly |straight )?(?:to|into)\b/g,
    'protect $1push access of',
  ],
  [
    /\b(?:should|must|can|may)(?: not|n't|n\u2019t) (?:be able to |be allowed to )?(push|merge|deploy)(?: to| into)?\b/g,
    'should be protected from $1 to',
  ],
  [
    /\b(?:should|must|can) only be (push|merg|deploy)(?:ed|able|ing)?(?: to)? by\b/g,
    'should be protected for $1 by',
  ],
  // Pushes or commits refused for what they hold: the push rules.
  [
    /\b(?:reject|block|refuse|forbid|prevent|deny|disallow) (?:any |all )?(?:commits|pushes)\b/g,
    'change push rules rejecting commits',
  ],
  // Whether a feature of the project is on: its settings.
  [
    /\b(?:is|are) (?:the )?(wiki|issues|issue tracker|merge requests|pipelines|ci|ci\/cd|snippets|container registry|package registry|packages|lfs|pages|requirements|releases|environments|forking|forks|analytics|service desk|squash|merge trains|shared runners)(?: feature)? (?:on|off|enabled|disabled|turned on|turned off|switched on|switched off|available)\b/g,
    'show project',
  ],
  // Who has access to a group or project: its members.
  [/\bwho (?:has|have|can|could) (?:access|get in|see it)(?: to)?\b/g, 'list members of'],
  // Who owns or runs a group or project: its members and their roles.
  [/\bwho (?:owns|maintains|runs|manages|administers|administrates)\b/g, 'who owner maintainer members of'],
  // Who is an administrator: the users, filtered.
  [
    /\bwho (?:has|have|is|are) (?:an? )?admin(?:istrator)?s?(?: rights| access| privileges| role)?\b/g,
    'list administrator users',
  ],
  // An environment variable of CI is a CI/CD variable.
  [/\b(?:env|environment) var(?:iable)?(s?)\b/g, 'ci variable$1'],
  // An issue moved to a board's column gets that column's label.
  [
    /\bmove (issue|ticket|card) (#?\w+ )?(?:to|into) (?:the )?([\w-]+ )(?:column|list|lane)\b/g,
    'update $1 $2label $3',
  ],
  // Moving an issue above or below another reorders it.
  [/\bmove (\w+ )?(#?\w+ )?(above|below|before|after|to the top of|to the bottom of)\b/g, 'reorder $1$2$3'],
  // Other tools' names for what the catalog calls otherwise.
  [/\b(branch|tag|environment) protection(?: rules?| settings)?\b/g, 'protected $1'],
  [
    /\b(?:code scanning|dependabot|security|sast|dast|secret scanning|container scanning) (?:alerts?|dashboard|overview|issues|problems)\b/g,
    'vulnerabilities',
  ],
  [/\b(?:build|ci) (?:agent|node|machine|server|worker|executor)(s?)\b/g, 'runner$1'],
  [/\bhow (?:big|large)\b/g, 'what size'],
  [/\bcan (?:i|we) (push|merge|force-?push)(?: to| into)\b/g, 'protected branch $1 access of'],
  // Only some people may deploy or push: protection; anyone may again: none.
  [
    /\bonly (\w+ )?(\w+ )?(?:can|may|should be able to|should|must|are allowed to|is allowed to) (deploy|push|merge)(?: to| into)?\b/g,
    'protect $3 access of',
  ],
  [
    /\b(?:anyone|everyone|everybody|all developers) (?:can|may|should be able to|is allowed to) (deploy|push|merge)(?: to| into)?( [\w-]+)?(?: again)?\b/g,
    'unprotect $1 access of$2',
  ],
  // Putting a merge request or issue back to a state marks it so.
  [/\bput (\w+ )?(#?\w+ )?back (?:to|in|into) (draft|review|todo|open|ready)\b/g, 'mark $1$2as $3'],
  // Administrators' own words: making someone one, and when people last signed in.
  [
    /\b(?:promote|make) (\w+ )?(?:to |into )?(?:an? )?(?:instance )?(?:admin|administrator)\b/g,
    'modify user $1admin',
  ],
  [/\b(?:signed|logged) (?:in|on) (?:most )?(?:recently|lately|last)\b/g, 'last activity'],
  [/\blast (?:signed|logged) (?:in|on)\b/g, 'last activity'],
  [/\blast (?:sign-?in|log-?in)s?\b/g, 'last activity'],
  // A folder named after what it holds is still a folder of the repository ("the docs folder").
  [
    /\b(?:docs|doc|documentation|src|source|lib|test|tests|spec|config|scripts|assets|public|build|dist|vendor) (folder|directory|dir)\b/g,
    '$1',
  ],
  // Where a name is defined or used in the code: a code search.
  [
    /\bwhere (?:is |are )?(?:the )?([\w.]+ )?([\w.]+ )?(?:is |are |gets |get )?(?:defined|declared|implemented|used|called|referenced)\b/g,
    'search code for $1$2',
  ],
  // "What's new in v3" (the version is no word searched): that release's notes.
  [/\bwhat(?:'s|\u2019s| is) new in(?= *(?:version |release )?[\d.]*$)/g, 'show the release notes of'],
  // Secret push protection is a security setting, not a CI secret.
  [/\bsecret push protection\b/g, 'security settings push protection'],
  // Leaving a group or project removes one's own membership.
  [
    /\b(?:leave|quit|stop being a member of|stop being in) (?:the |this |our |my )?([\w-]+ )?(group|project|team|repo|repository)\b/g,
    'remove my member from the $1$2',
  ],
  // Who asked to join: the access requests.
  [/\b(?:requested|asked for|requesting|asking for) (?:access|membership)\b/g, 'access requests'],
  [/\b(?:asked|asking) to join\b/g, 'access requests'],
  // Notifications from a whole project or group: the caller's notification level there.
  [
    /\b(?:watch|mute|unwatch|unmute|silence) (?:the |this |our |my )?([\w-]+ )?(project|group|repo|repository)\b/g,
    'update my notification level for the $1$2',
  ],
  [
    /\b(?:stop|mute|silence|turn off|disable|unsubscribe from) (?:all )?(?:the )?(?:emails?|notifications?|alerts?) (?:from|for|of|about|on) (?:the |this |our |my )?([\w-]+ )?(project|group|repo|repository)\b/g,
    'update my notification level for the $1$2',
  ],
  [
    /\b(?:only want|only get|only receive|want|get|receive) (?:only )?(?:notifications|emails|notified)\b/g,
    'update my notification settings',
  ],
  // Sharing a thing with everyone makes it public: its visibility.
  [
    /\b(?:share|publish|open up) (\w+ )?(\w+ )?(\w+ )?(?:publicly|with everyone|with the world|to the public)\b/g,
    'change $1$2$3visibility to public',
  ],
  // Taking back the time logged resets it.
  [
    /\b(?:remove|delete|undo|clear|wipe) (?:all )?(?:the )?time (?:i |we |that was |was )?(?:logged|spent|tracked)\b/g,
    'reset spent time',
  ],
  // Draft merge requests are merge requests in a state, not draft review comments.
  [/\bdraft (merge requests?|mrs?|prs?|pull requests?)\b/g, '$1 that are draft'],
  // Which groups or projects someone is in: that user's memberships.
  [
    /\b(?:which|what) (projects|groups|repos|repositories|teams) (?:is|are|does|do) (\w+ )(?:in|a member of|belong to|part of|have access to)\b/g,
    'memberships of a user $2in $1',
  ],
  // Asking whether something can be done asks to do it: the verb after says what.
  [
    /\b(?:is|any|what) (?:it possible to|there a way to|there any way to|way to|is the way to|is the best way to|is the right way to)\b/g,
    'please',
  ],
  [/\bwhat's the (?:best |right )?way to\b/g, 'please'],
  // Running something every night or week is scheduling it.
  [
    /\b(?:every|each) (?:night|day|morning|evening|hour|week|weekday|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/g,
    'scheduled',
  ],
  // A queue of merge requests waiting to merge is the merge train.
  [/\b(?:merge queue|queued to merge|waiting to merge|lined up to merge)\b/g, 'merge train'],
  // The caller's own tokens are personal access tokens.
  [/\bmy (?:own )?(?:access |api )?(token|tokens)\b/g, 'my personal access $1'],
  // What the caller is assigned to: the lists of what is assigned to them.
  [/\b(?:am i|i am) (?:assigned|working) (?:to|on)\b/g, 'assigned to me'],
  // How merge requests may merge is a project setting.
  [/\b(?:only allow|allow only) (\w+ )?merges\b/g, 'change project merge method $1merges'],
  [
    /\b(?:block|prevent|disallow|forbid|no) merg(?:ing|es) (?:until|unless|before|without)\b/g,
    'change project settings merge only when',
  ],
  // Instance-wide, site-wide: the instance's own.
  [/\b(?:instance|site|server|system)\b[- ]wide\b/g, 'all instance'],
  // A group given access to a group or project: sharing with it.
  [/\b(?:give|grant) (?:the )?([\w-]+ )?(?:group|team) access to\b/g, 'share $1group with'],
  // Other projects' jobs let in with their tokens: the job token allowlist.
  [
    /\b(?:let|allow) ([\w ]{0,40}?)\buse (?:(?:[\w-]+'s|the|this|our|my) )*(?:ci )?job tokens?\b/g,
    'add $1to the job token allowlist',
  ],
  // One merge request waiting on another depends on it.
  // (Only on another of them: a job waiting on a lock is queued for it.)
  [
    /\b(?:wait|waits|waiting) on(?=\s*(?:$|[?.!,;])| (?:(?:another|other|the other|an?|the|this|that|its) )?(?:merge requests?|mrs?|prs?|pull requests?|issues?|#|!|\d))/g,
    'depends on',
  ],
  [/\b(wait|waits|waiting) on\b/g, '$1 for'],
  // "Who is in the group": its members.
  [
    /\b(who)(?: is|'s|\u2019s| are) (?:in|on|part of)\b(?=(?: the| this| our| my)?(?: [\w-]+)? (?:group|project|repo|repository|team)\b)/g,
    'members of',
  ],
  // A new version of a file (not of a package), uploaded or pushed, updates it.
  [
    /\b(?:upload|push|commit|put) (?:a |the )?new version of(?= (?:the |a )?(?:file\b|readme|[\w./-]+\.[a-z]{1,5}\b))/g,
    'update',
  ],
  // Throwing a thing away discards it; no longer protecting, following or watching it undoes that.
  [/\bthrow (\w+ )?(\w+ )?(\w+ )?(\w+ )?away\b/g, 'discard $1$2$3$4'],
  [/\bthrow away\b/g, 'discard'],
  [/\bstop protecting\b/g, 'unprotect'],
  [/\bstop (?:following|watching)\b/g, 'unsubscribe from'],
  // Sharing a piece of code is a snippet.
  [/\bshare (?:a |some |this |my )?(?:code snippet|snippet|piece of code|code|paste)\b/g, 'create snippet'],
  // Keeping a runner or schedule from taking work pauses it.
  [/\bstop (\w+ )?(#?\w+ )?from (?:picking up|taking|running|accepting)\b/g, 'pause $1$2taking'],
  [
    /\b(?:send|push|ship|promote|put|deploy|release) (?:the |this |our |my )?(?:\w+ )?(?:out )?to (production|prod|staging|live)\b/g,
    'play the manual deploy job for $1',
  ],
  // "My project" names the project, not the person asking.
  [/\b(?:my|our) (project|repo|repository|group)\b(?!s)/g, 'the $1'],
];

/**
 * Phrasings only requests use, each with words one of which a request must hold for it to be tried, read before
 * the phrasal verbs and on the request alone: the catalog's texts never
 * say them (reading them there would only slow the index build, and could turn a phrasing of what an action
 * does, "stop it merging on its own", into another request).
 */
export const REQUEST_PHRASES: Array<[needs: string[], phrase: RegExp, said: string]> = [
  // A comment on a line (of a diff, of a file in a merge request) starts a thread placed at that line.
  [
    ['line'],
    /\b(?:leave|add|post|write|put|make|drop|suggest) (?:a |an )?(?:comment|note|remark|suggestion|change|edit) (?:on|at|to|for) (?=(?:a |the |this |that )?(?:specific |particular |single |one )?lines?\b)/g,
    'start a thread on ',
  ],
  [
    ['line'],
    /\b(?:comment|note|remark|suggestion)s? (?:on|at|to|for) (?=(?:a |the |this |that )?(?:specific |particular |single |one )?lines?\b)/g,
    'start a thread on ',
  ],
  // Asking someone to review or take on a thing assigns it to them (a reviewer of a merge request).
  [
    ['review', ' over'],
    /\b(?:ask|get|have|tell|ping|need|want|like) (?!(?:to|me|us|you)\b)(\w+ )(?:to )?(?:review|look over|go over)\b/g,
    'assign $1as reviewer of',
  ],
  [
    ['review', ' over'],
    /\b(?:can|could|would|will) (someone|somebody|anyone|anybody) (?:please )?(?:review|look over|go over)\b/g,
    'assign $1 as reviewer of',
  ],
  [['review'], /\b(?:request|ask for|get) (?:a )?review (?:from|by) (\w+ )/g, 'assign $1as reviewer '],
  // A commit wanted on another branch too ("commit abc should also be on stable", "get the fix from commit abc
  // onto release-2"): it is cherry-picked there.
  [
    ['commit'],
    /\bcommit ([\w-]+ )(?:should|must|needs to|has to|ought to) (?:also )?(?:be|go|land|end up) (?:on|in|into|onto|to)\b/g,
    'cherrypick commit $1 onto',
  ],
  [
    ['commit'],
    /\b(?:get|copy|bring|carry|port|backport|apply|put|move|take) (?:over )?(?:the (?:fix|change|changes) (?:from|of|in) )?commit ([\w-]+ )(?:over )?(?:(?:to|onto|into) )?(?=(?:the |our )?(?:[\w./-]+ )?(?:branch\b|main\b|master\b|develop\b|stable\b|release\b|hotfix\b))/g,
    'cherrypick commit $1 onto ',
  ],
  // Another forge's repositories, in the plural and unqualified, are this instance's projects (not a registry's
  // container repositories, nor the repositories of projects, groups or snippets moved between disks).
  [
    ['repos'],
    /\b(?<!(?:container|image|docker|registry|package|remote|mirror|mirrored|snippet|group|project|wiki) )(?:repositories|repos)\b/g,
    'projects',
  ],
  // What changed on one branch (its usual names, or a branch named so) is its recent commits; between two refs it
  // is a comparison, said with "between".
  [
    ['what', 'changes'],
    /\b(?:what(?:'s|\u2019s| is| has| was)? (?:been )?(?:changed|new)|(?:the )?(?:recent |latest |last |new )?changes) (?:on|in|to|of) (?=(?:the +)?(?:main|master|develop|trunk|(?:[\w./-]+ +)?branch)\b)/g,
    'recent commits on ',
  ],
  // Who owns a thing that runs as its owner (a pipeline schedule): taking it over takes its ownership.
  [
    ['owner', 'own', 'over'],
    /\b(?:make me|set me as|put me down as|i (?:should|want to|need to|must|would like to) be|i'll be|i will be) (?:the )?(?:new )?owner of\b/g,
    'take ownership of',
  ],
  [['own'], /\b(?:i|we) (?:should|want to|need to|must|would like to|will) own\b/g, 'take ownership of'],
  [['over'], /\btake over\b/g, 'take ownership of'],
  // When a schedule fires is its time, a change of it ("change it to fire at 02:30", "should run at 3am").
  [
    ['fire', 'run', 'start', 'trigger', 'go off', 'kick off'],
    /\b(to|should|must|will|would|needs? to|has to) (?:fire|run|start|trigger|go off|kick off) (at|every|on|daily|nightly|weekly|hourly|each)\b/g,
    '$1 be rescheduled $2',
  ],
  // A merge request put on, sent down or queued for the train is added to it.
  [
    ['train'],
    /\b(?:put|send|add|queue|line|get|move|place) (?:up )?(\w+ )?(#?\w+ )?(?:up )?(?:on|onto|to|down|in|into|for) (?:the )?(?:merge )?train\b/g,
    'add $1$2to the merge train',
  ],
  [
    ['queue'],
    /\bqueue (\w+ )?(#?\w+ )?(?:up )?(?:to merge|for merging|for merge)\b/g,
    'add $1$2to the merge train',
  ],
  // Merging on its own no more cancels the auto-merge.
  [
    ['merg'],
    /\b(?:no longer|not|stop|never|don't|do not|shouldn't|should not|won't) (?:to )?merg(?:e|ing) (?:automatically|by itself|on its own|when the pipeline (?:passes|succeeds))\b/g,
    'cancel automerge',
  ],
  // The target branch's latest work brought into a merge request's branch rebases it.
  [
    ['into', 'up to date', 'catch'],
    /\b(?:bring|pull|get|merge) (?:in )?(?:the )?(?:latest |newest |recent |new )?(?:changes |commits |work )?(?:(?:from|of|on) )?(?:the )?(main|master|develop|trunk|target branch|default branch)(?:'s)?(?: changes| commits| branch)? into\b/g,
    'rebase onto $1 of',
  ],
  [['catch'], /\bcatch (\w+ )?(#?\w+ )?up (?:with|to|on)\b/g, 'rebase $1$2onto'],
  // One issue unable to start or finish before another is blocked by it: a link between the two.
  [
    ['until', 'before'],
    /\b(issue|ticket) (#?\d+ )(?:can't|cannot|can not|won't|shouldn't|should not|must not) (?:start|begin|proceed|move|ship|be done|be closed|be started|close) (?:until|before)\b/g,
    'link $1 $2 as blocked by',
  ],
  // What an issue depends on, is blocked by or blocks: its links.
  [
    ['depend', 'block'],
    /\b(?:does|do|is|are) (issue|ticket) (#?\d+ )(?:depend on|depending on|blocked by|blocking|block)\b/g,
    'links of $1 $2',
  ],
  // Over time: the history of it.
  [['over time'], /\bover time\b/g, 'history'],
  // A time when no one may deploy is a deploy freeze (not who may deploy: that is the environment's protection).
  [
    ['deploy'],
    /\b(?:window|period|time|times|days|hours|week|weeks|weekend|holidays?) (?:when|where|during which|in which|that) (?:we |you |nobody |no one |people )?(?:can't|cannot|can not|must not|may not|shouldn't|should not|don't|do not|are not allowed to|aren't allowed to)? ?(?:deploy|ship|release)\b/g,
    'deploy freeze period',
  ],
  // Who may approve a merge request: its approval state, rule by rule.
  [
    ['approve'],
    /\b(?:who (?:can|may|is allowed to|are allowed to|still has to|still needs to|has to|needs to|must)|(?:people|folks|users|members) (?:who (?:can|may)|allowed to|able to)) (?:still )?approve\b/g,
    'who may approve approval state of',
  ],
  // Files of the repository named by their use: a description template, a contributing guide.
  [
    ['template'],
    /\b(?:the |our |an? )?(?:issue|merge request|mr|pr|pull request|bug report|description) (?:description )?templates?\b/g,
    'the template file',
  ],
  [
    ['guide', 'guidelines', 'file', 'doc'],
    /\b(?:contributing|codeowners|code owners|changelog|license|licence) (?:guide|guidelines|file|doc|docs|document)\b/g,
    'repository file',
  ],
  // A project's thing turned into the group's (a label, a milestone) is promoted.
  [
    ['into', ' to '],
    /\b(?:turn|convert|make|change|move) (?:the |this |a |our )?project (\w+ )(?:[\w-]+ )?(?:into|to) (?:a |the )?group (\w+)\b/g,
    'promote project $1to group $2',
  ],
  // What a build leaves behind is its artifacts (its log is its output as text).
  [['output'], /\bbuild outputs?\b/g, 'artifacts'],
  // A thing taken off what it was on ("get issue 7 off the sprint") is removed from it.

  // A value that goes into a variable or setting is its new value.
  [
    ['into', 'in to', ' in '],
    /\b(?:goes|go|should go|must go|needs to go|has to go|belongs) (?:in|into|in to) +(?:(?:the|our|a) +)?([\w-]+ +)?(variable|secret|setting|field)\b/g,
    'and the $1$2 needs a new value',
  ],
  // Stopping, closing or expiring by itself is the thing's automatic setting.
  [
    ['itself', 'own', 'automatically'],
    /\b(?:stop|shut down|expire|close|end)s? (?:by itself|on its own|automatically)\b/g,
    'change auto stop setting',
  ],
  // As learners of English put it: "is possible to archive ...".
  [['possible'], /\b(?:is|it is|it's|it\u2019s) possible to\b/g, 'please'],
  // "Give me the list of ...": a list.
  [
    ['list', 'overview'],
    /\b(?:give|get|send|bring|show) me (?:the |a )?(?:full )?(?:list|overview) of\b/g,
    'list',
  ],
  // A webhook's secret is its secret token, not a CI/CD secret.
  [['secret'], /\b((?:web)?hook)(?:['\u2019]s)? secret(?: token)?\b/g, '$1 token'],
  // What a thing should also pass on or have is one more of it to add ("should also pass X to its pipelines").
  [
    ['also'],
    /\b(?:should|must|needs? to|has to|ought to) also (?:pass|give|get|have|send|include|carry|hold)\b/g,
    'needs a',
  ],
  // A new value put in (for a variable, a secret): the thing updated with it.
  [
    ['new'],
    /\bput (?:in )?(?:the |a )?new (value|secret|password|token|key|url)(?: in)?\b/g,
    'set the new $1',
  ],
  [
    ['look', 'handle', 'fix', 'care', 'work'],
    /\b(?:ask|get|have|tell) (\w+ )(?:to )?(?:look at|look into|handle|fix|take care of|work on)\b/g,
    'assign $1to',
  ],
  // A page that explains or documents something, a docs page: a wiki page (a Pages site is published, not read).
  [
    ['page'],
    /\b(?:(?:docs?|documentation|help|how-?to|handbook|runbook) page(s?)|(?<!wiki )page(s?)(?= (?:that |which )?(?:explains?|explaining|describ\w*|document\w*|covers?|covering|talks? about|tells?|says|about|on how|for how)\b))/g,
    'wiki page$1$2',
  ],
  // Another platform's checks on a commit: its commit statuses; asking for changes on a review submits it.
  [['check'], /\bcheck (?:run|suite)s\b/g, 'commit statuses'],
  [['check'], /\bcheck (?:run|suite)\b/g, 'commit status'],
  [['changes'], /\brequest(?:s|ing)? changes\b/g, 'submit review'],
  // A review finished or sent is submitted (not a review comment posted, nor a reviewer).
  [
    ['review'],
    /\b(?:send|finish|complete|conclude|finali[sz]e|wrap up|hand in|turn in) (?:off |up |in )?(?:my |the |our |this |your )?(?:pending )?review(?! ?(?:er|comment|note|thread|discussion|reply|request))\b/g,
    'submit review',
  ],
  // Reviews or approvals required before merging: an approval rule of the project.
  [
    ['review', 'approv', 'sign'],
    /\b(?:require|requires|requiring|need|needs|enforce|mandate) (?:an? |one |two |three |\d+ )?(?:code )?(?:reviews?|approvals?|approvers?|sign-?offs?)(?= (?:before|for|to) merg)/g,
    'add a project approval rule',
  ],
  // "I want that issue 5 is closed": what it should be.
  [
    ['that'],
    /\b(?:i |we )?(?:want|wish|need|would like) that ([\w#!.-]+(?: [\w#!.-]+){0,3}?) (?:is|are|be|gets?) /g,
    '$1 should be ',
  ],
  // Another platform's workflow file is the CI/CD configuration.
  [['workflow'], /\bworkflow (?:file|yaml|yml|config(?:uration)?|definition)(s?)\b/g, 'ci config file$1'],
  // Someone added as a reviewer or assignee of a merge request or issue: that one is changed.
  [
    ['reviewer', 'assignee'],
    /\b(?:add|put|make|set) (\w+ )as (?:an? |the )?(reviewer|assignee)s? (?:of|on|to|for)\b/g,
    'set $1as $2 on',
  ],
  // A lock on deploying ("the production lock", "the deploy lock"): the resource group jobs wait for.
  [['lock'], /\b(deploy(?:ment)?|production|prod|staging|release) locks?\b/g, '$1 resource group'],
];

/** Written either way, on both sides: the catalog's IDs use the short form, people use both. */
export const ABBREVIATIONS: Record<string, string> = {
  mr: 'merge request',
  mrs: 'merge requests',
  pr: 'merge request',
  prs: 'merge requests',
  ff: 'feature flag',
  env: 'environment',
  envs: 'environments',
  pat: 'personal access token',
  pats: 'personal access tokens',
  repo: 'repository',
  repos: 'repositories',
  '2fa': 'two factor',
  attr: 'attribute',
  db: 'database',
  gpg: 'gpg',
  yml: 'yaml',
  vuln: 'vulnerability',
  vulns: 'vulnerabilities',
  cve: 'vulnerability',
  cves: 'vulnerabilities',
  deps: 'dependencies',
  pkg: 'package',
  pkgs: 'packages',
  k8s: 'kubernetes',
  perms: 'permissions',
  desc: 'description',
  msg: 'message',
  cfg: 'config',
  sha: 'commit',
  // Shortened as people type in a chat.
  var: 'variable',
  vars: 'variables',
  proj: 'project',
  projs: 'projects',
  grp: 'group',
  grps: 'groups',
  notif: 'notification',
  notifs: 'notifications',
  sched: 'schedule',
  scheds: 'schedules',
  req: 'request',
  reqs: 'requests',
  usr: 'user',
  usrs: 'users',
  acct: 'account',
  pw: 'password',
  pwd: 'password',
  tkn: 'token',
  img: 'image',
  imgs: 'images',
  cmt: 'comment',
  cmts: 'comments',
  msgs: 'messages',
  ur: 'your',
};

/**
 * An operation's verb as a title starts with it, grouped with the verbs of the same kind; a request's
 * verb (REQUEST_VERBS) names the kinds it accepts. Every title's first word that is a verb appears here.
 */
const KINDS = {
  read: ['get', 'read', 'show', 'check', 'verify', 'preview', 'blame', 'compare', 'render', 'query', 'count'],
  list: ['list', 'search', 'find', 'explore', 'count'],
  create: ['create', 'add', 'register', 'record', 'start', 'invite'],
  update: [
    'update',
    'edit',
    'set',
    'change',
    'modify',
    'rename',
    'configure',
    'turn',
    'mark',
    'move',
    'reorder',
  ],
  // Undoing a state is removing it too: "remove the protection" unprotects.
  delete: [
    'delete',
    'remove',
    'revoke',
    'purge',
    'erase',
    'discard',
    'deny',
    'unlink',
    'unassign',
    'bulk',
    'unprotect',
    'unarchive',
    'unstar',
    'unsubscribe',
    'unshare',
    'unblock',
    'unban',
    'unapprove',
    'unpublish',
    'unlock',
  ],
} as const;

type Weights = Record<string, number>;

/** Operations that make or remove a thing, and those that change one in place. */
export const CREATE_OR_DELETE = new Set<string>([
  ...KINDS.create,
  'delete',
  'remove',
  'erase',
  'purge',
  'discard',
  'bulk',
]);
export const UPDATE_OPERATIONS = new Set<string>(KINDS.update);

/**
 * "add X to Y", "remove X from Y", "set X on Y": the words after one of these name the thing changed (Y),
 * which is then neither made nor removed but updated.
 */
export const TARGET_PREPOSITIONS = new Set(['to', 'from', 'on', 'onto', 'into', 'in', 'for']);

/** The operations that only read: asking to read, an action that writes answers worse, and the other way round. */
export const READ_OPERATIONS = new Set<string>([
  ...KINDS.read,
  ...KINDS.list,
  'download',
  'export',
  'wait',
  'test',
]);

/** The verbs of `kind`, each at weight `w` (a request's verb accepts a whole kind less strongly). */
function kind(k: keyof typeof KINDS, w: number): Weights {
  return Object.fromEntries(KINDS[k].map((v) => [v, w]));
}

/** Merges weight tables, the strongest weight of a verb winning. */
export function accept(...tables: Weights[]): Weights {
  const out: Weights = {};
  for (const t of tables) for (const [v, w] of Object.entries(t)) out[v] = Math.max(out[v] ?? 0, w);
  return out;
}

const READ = accept(kind('read', 0.8), kind('list', 0.7), { get: 1, show: 1, download: 0.7 });
const LIST = accept(kind('list', 0.9), kind('read', 0.4), { list: 1 });
const CREATE = accept(kind('create', 0.8), { create: 1, add: 0.95 });
const UPDATE = accept(kind('update', 0.8), { update: 1, edit: 1, change: 0.95, modify: 0.95 });
const DELETE = accept(kind('delete', 0.8), { delete: 1, remove: 1 });
const SET = accept(kind('update', 0.8), kind('create', 0.6), { set: 1, setup: 0.9, update: 0.9 });
const ENABLE = accept(SET, { turn: 1, enable: 1, allow: 0.8, assign: 0.6, activate: 0.7 });
// Switching a thing off changes it; removing it is a weaker reading.
const DISABLE = accept(kind('update', 0.7), { turn: 1, disable: 1, delete: 0.5, remove: 0.5, unassign: 0.7 });
const CLOSE = accept(UPDATE, { stop: 0.5 });
const RUN = { run: 1, trigger: 0.8, play: 1, start: 0.8, create: 0.7, retry: 0.4 };

/** A verb of its own kind: its own operation first, the rest of the kind after. */
function own(verb: string, k: keyof typeof KINDS, w = 0.6): Weights {
  return accept(kind(k, w), { [verb]: 1 });
}

/**
 * A request's leading verb: the operations (a title's first word) it asks for, with how well each
 * answers it. A verb not listed here asks for the operation of the same name.
 */
export const REQUEST_VERBS: Record<string, Weights> = {
  get: READ,
  show: READ,
  view: READ,
  see: READ,
  display: READ,
  read: READ,
  fetch: accept(READ, { download: 0.8 }),
  open: accept(CREATE, { get: 0.5 }),
  check: accept(READ, { check: 1, verify: 0.9, validate: 0.8 }),
  inspect: READ,
  describe: READ,
  list: LIST,
  find: accept(LIST, { search: 1, find: 1, get: 0.6 }),
  search: accept(LIST, { search: 1 }),
  look: accept(LIST, { search: 1, find: 1, get: 0.7 }),
  browse: accept(LIST, { explore: 1 }),
  explore: accept(LIST, { explore: 1 }),
  count: { count: 1, get: 0.6, list: 0.5 },
  create: CREATE,
  add: accept(CREATE, { allow: 0.7, assign: 0.6, log: 0.6, apply: 0.6, update: 0.5, react: 0.6 }),
  new: CREATE,
  make: accept(CREATE, UPDATE, { create: 0.9, mark: 0.8 }),
  file: CREATE,
  raise: CREATE,
  submit: accept(CREATE, { submit: 1, publish: 0.8 }),
  register: own('register', 'create', 0.8),
  record: own('record', 'create', 0.8),
  schedule: accept(CREATE, { start: 0.8 }),
  leave: accept(CREATE, { comment: 0.9 }),
  attach: accept(CREATE, { upload: 0.9, link: 0.8 }),
  give: accept(CREATE, { allow: 0.9, award: 0.9, react: 0.9, invite: 0.8 }),
  grant: accept(CREATE, { allow: 0.9, award: 0.9, invite: 0.8 }),
  set: SET,
  configure: accept(SET, { configure: 1, setup: 1 }),
  setup: { setup: 1, configure: 1, create: 0.95, add: 0.9, set: 0.9, update: 0.6, turn: 0.6 },
  update: UPDATE,
  edit: UPDATE,
  change: UPDATE,
  modify: UPDATE,
  rename: own('rename', 'update', 0.8),
  close: CLOSE,
  reopen: UPDATE,
  // Locking a branch protects it.
  lock: accept(own('lock', 'update', 0.8), { protect: 0.9 }),
  unlock: own('unlock', 'update', 0.8),
  mark: own('mark', 'update', 0.8),
  label: UPDATE,
  estimate: SET,
  enable: ENABLE,
  activate: accept(ENABLE, { activate: 1 }),
  turn: ENABLE,
  disable: DISABLE,
  deactivate: accept(DISABLE, { deactivate: 1 }),
  move: { move: 1, transfer: 1, update: 0.5, reorder: 0.6 },
  request: { request: 1, update: 0.6, add: 0.5 },
  migrate: { import: 1, start: 0.9, move: 0.6 },
  kill: { cancel: 1, stop: 0.9 },
  nuke: DELETE,
  unregister: DELETE,
  map: { add: 1, create: 0.9, link: 0.9 },
  // Notifying a chat tool sets up its integration.
  notify: { setup: 1, set: 0.9, create: 0.8, subscribe: 0.7 },
  mirror: { add: 1, create: 0.9, setup: 0.9, configure: 0.9 },
  zero: { reset: 1, delete: 0.6 },
  downgrade: UPDATE,
  connect: { register: 1, setup: 0.9, create: 0.9, add: 0.9, link: 0.8, set: 0.8 },
  disconnect: { delete: 1, remove: 1, unlink: 0.9, revoke: 0.7 },
  deregister: DELETE,
  trash: DELETE,
  wipe: DELETE,
  scrap: DELETE,
  ditch: DELETE,
  ping: { test: 1, check: 0.8 },
  cut: { create: 1, publish: 0.8, add: 0.8 },
  stamp: { create: 1, add: 0.8 },
  bookmark: { star: 1 },
  pin: { keep: 1 },
  keep: { keep: 1 },
  preserve: { keep: 1 },
  favorite: { star: 1 },
  put: { add: 1, log: 0.8, create: 0.7, set: 0.7, move: 0.5 },
  bump: UPDATE,
  // Dates moved: a change of the thing they belong to.
  postpone: UPDATE,
  delay: UPDATE,
  reschedule: UPDATE,
  extend: UPDATE,
  tweak: UPDATE,
  require: accept(SET, { create: 0.8, change: 0.9 }),
  enforce: accept(SET, { create: 0.8, change: 0.9 }),
  revert: { revert: 1 },
  branch: CREATE,
  tag: CREATE,
  commit: CREATE,
  push: { push: 1, create: 0.8 },
  protect: { protect: 1, create: 0.6 },
  unprotect: { unprotect: 1, delete: 0.6 },
  transfer: { transfer: 1, move: 1 },
  assign: accept(UPDATE, { assign: 1, add: 0.7, enable: 0.6 }),
  delete: DELETE,
  remove: DELETE,
  drop: DELETE,
  destroy: DELETE,
  erase: own('erase', 'delete'),
  purge: own('purge', 'delete'),
  discard: own('discard', 'delete'),
  clean: own('purge', 'delete', 0.8),
  cleanup: own('purge', 'delete', 0.8),
  prune: own('purge', 'delete', 0.8),
  revoke: own('revoke', 'delete'),
  unlink: own('unlink', 'delete'),
  unassign: accept(own('unassign', 'delete'), { disable: 0.7 }),
  log: { log: 1, add: 0.9, record: 0.6, create: 0.5 },
  track: { log: 0.9, add: 0.8, track: 1 },
  spend: { log: 1, add: 0.9 },
  publish: { publish: 1, create: 0.95, submit: 0.8, upload: 0.7, add: 0.6 },
  release: { publish: 1, create: 0.9 },
  upload: { upload: 1, publish: 0.8, add: 0.7, create: 0.6, set: 0.6 },
  download: { download: 1, get: 0.5, read: 0.5 },
  export: { export: 1, start: 0.8, download: 0.5 },
  import: { import: 1, start: 0.5 },
  run: RUN,
  execute: RUN,
  trigger: { ...RUN, trigger: 1 },
  start: accept(RUN, { start: 1 }),
  play: RUN,
  kick: RUN,
  retry: { retry: 1, run: 0.5, resend: 0.5 },
  rerun: { retry: 1, run: 0.5 },
  replay: { resend: 1, retry: 0.8 },
  redeliver: { resend: 1, retry: 0.8 },
  restart: { retry: 1, run: 0.5 },
  cancel: { cancel: 1, stop: 0.8 },
  abort: { cancel: 1, stop: 0.8 },
  stop: { stop: 1, cancel: 0.9, unsubscribe: 0.5, turn: 0.5, disable: 0.5 },
  // Swapping a value for another changes it.
  swap: accept(UPDATE, { rotate: 0.8, replace: 1 }),
  shut: { stop: 1, cancel: 0.7, pause: 0.6, disable: 0.5 },
  watch: { subscribe: 1 },
  unwatch: { unsubscribe: 1 },
  follow: { subscribe: 1 },
  mute: { unsubscribe: 1, update: 0.5 },
  comment: { comment: 1, start: 0.7, reply: 0.6, add: 0.5, create: 0.5 },
  reply: { reply: 1, comment: 0.7 },
  respond: { reply: 1, comment: 0.7 },
  react: { react: 1, add: 0.6 },
  squash: { merge: 1 },
  accept: { merge: 0.8, approve: 0.8 },
  unapprove: { revoke: 1, unapprove: 1, reset: 0.5 },
  validate: { validate: 1, check: 0.8, verify: 0.8 },
  verify: { verify: 1, check: 0.9, get: 0.5 },
  test: { test: 1, check: 0.6, validate: 0.6 },
  apply: { apply: 1, add: 0.7, set: 0.6, cherrypick: 0.6 },
  undo: { revert: 1, restore: 0.8, reset: 0.6, delete: 0.4 },
  tear: { stop: 1, delete: 0.8 },
  reactivate: { activate: 1, unblock: 0.7, unban: 0.7 },
  award: { award: 1, add: 0.7 },
  reset: { reset: 1 },
  approve: { approve: 1 },
  archive: { archive: 1 },
  retire: { archive: 1, delete: 0.5 },
  star: { star: 1 },
  subscribe: { subscribe: 1 },
  block: { block: 1 },
  ban: { ban: 1 },
  link: { link: 1, add: 0.6 },
  // A secret is rotated by giving it a new value.
  rotate: { rotate: 1, renew: 0.8, reset: 0.6, update: 0.5 },
  renew: { renew: 1, rotate: 0.8 },
  regenerate: { renew: 1, rotate: 1, reset: 0.8 },
  share: { share: 1, invite: 0.8 },
  unshare: { stop: 1, remove: 0.9, delete: 0.8 },
  invite: { invite: 1, add: 0.8, share: 0.6 },
  sync: { sync: 1 },
  compare: { compare: 1, get: 0.5 },
  diff: { compare: 1, get: 0.6 },
  blame: { blame: 1 },
  restore: { restore: 1, revert: 0.5 },
  cherrypick: { cherrypick: 1 },
  cherry: { cherrypick: 1 },
  pick: { cherrypick: 1 },
  // Pausing and resuming a runner or a schedule changes its active setting.
  pause: { pause: 1, update: 0.95, stop: 0.5, disable: 0.5 },
  unpause: { resume: 1, update: 0.95, activate: 0.6, enable: 0.5 },
  resume: { resume: 1, update: 0.95, activate: 0.8, unblock: 0.5, enable: 0.5 },
  suspend: { pause: 1, block: 0.9, deactivate: 0.9, update: 0.8, ban: 0.6 },
  toggle: accept(ENABLE, DISABLE, { update: 1 }),
  flip: accept(ENABLE, DISABLE, { update: 1 }),
  switch: accept(ENABLE, DISABLE, { update: 1, move: 0.6 }),
  rollout: accept(UPDATE, { deploy: 0.8 }),
  // Reactions.
  upvote: { react: 1, award: 0.8, add: 0.6 },
  downvote: { react: 1, award: 0.8, add: 0.6 },
  like: { react: 1, award: 0.8, star: 0.8, add: 0.6 },
  heart: { react: 1, award: 0.8, add: 0.6 },
  thumbsup: { react: 1, award: 0.8, add: 0.6 },
  thumbsdown: { react: 1, award: 0.8, add: 0.6 },
  unlike: { remove: 1, delete: 0.9, unstar: 0.8 },
  // Getting rid of and taking back.
  clear: accept(DELETE, { mark: 0.9, reset: 0.9, purge: 0.9 }),
  withdraw: { revoke: 1, unapprove: 1, remove: 0.8, delete: 0.7, cancel: 0.7 },
  retract: { revoke: 1, unapprove: 1, remove: 0.8, delete: 0.7 },
  recall: { revoke: 1, remove: 0.8, cancel: 0.7 },
  halt: { cancel: 1, stop: 1 },
  terminate: { cancel: 1, stop: 1, delete: 0.6 },
  undelete: { restore: 1 },
  lift: { unban: 1, unblock: 1, unlock: 0.8, remove: 0.6, delete: 0.5 },
  recover: { restore: 1, revert: 0.5 },
  unfollow: { unsubscribe: 1 },
  unmute: { subscribe: 1 },
  // Making and starting.
  // Everyday verbs for the catalog's operations.
  send: { send: 1, invite: 0.8, resend: 0.8, test: 0.7, create: 0.6, move: 0.6, transfer: 0.6 },
  hide: accept(UPDATE, { archive: 0.6 }),
  unhide: accept(UPDATE, { unarchive: 0.6 }),
  restrict: { protect: 1, update: 0.9, set: 0.8, change: 0.8 },
  prevent: { protect: 1, update: 0.9, set: 0.8, change: 0.8, pause: 0.6 },
  forbid: { protect: 1, update: 0.9, set: 0.8, deny: 0.6 },
  grab: accept(READ, { download: 0.9 }),
  dump: { export: 1, download: 0.9, get: 0.6 },
  clone: { fork: 1, download: 0.6 },
  copy: { fork: 0.9, create: 0.8 },
  duplicate: { fork: 0.9, create: 0.8 },
  retitle: own('rename', 'update', 0.9),
  recolor: UPDATE,
  spent: { log: 1, add: 0.9 },
  paste: CREATE,
  use: { enable: 1, add: 0.9, get: 0.8, set: 0.7 },
  drain: { move: 1, schedule: 0.8 },
  report: { set: 1, create: 0.8, add: 0.7 },
  queue: RUN,
  fix: UPDATE,
  impersonate: { create: 1, add: 0.8 },
  recolour: UPDATE,
  upgrade: UPDATE,
  demote: UPDATE,
  reassign: accept(UPDATE, { assign: 1 }),
  ignore: { dismiss: 1, unsubscribe: 0.6 },
  acknowledge: { confirm: 1, mark: 0.8 },
  decline: { reject: 1, deny: 1 },
  refuse: { deny: 1, reject: 1 },
  reject: { reject: 1, deny: 1 },
  deploy: { create: 0.9, play: 0.8, run: 0.8 },
  redeploy: { retry: 1, create: 0.7, run: 0.6 },
  audit: READ,
  monitor: READ,
  peek: READ,
  invalidate: { revoke: 1, delete: 0.6 },
  reissue: { rotate: 1, renew: 1, reset: 0.8 },
  refresh: { rotate: 1, renew: 1, sync: 0.8, reset: 0.6 },
  cycle: { rotate: 1, renew: 0.8 },
  tidy: own('purge', 'delete', 0.8),
  onboard: { invite: 1, add: 0.9, create: 0.7 },
  offboard: { remove: 1, delete: 0.8, block: 0.6 },
  unfavorite: { unstar: 1 },
  unbookmark: { unstar: 1 },
  store: accept(CREATE, { set: 0.9, upload: 0.7 }),
  save: accept(CREATE, UPDATE, { create: 1, set: 0.9 }),
  post: { create: 1, add: 0.9, comment: 0.9, publish: 0.9, submit: 0.9, reply: 0.7 },
  generate: accept(CREATE, { generate: 1, renew: 0.7, rotate: 0.7 }),
  // Writing something new: a text made (a page, a changelog, a draft).
  write: accept(CREATE, { generate: 0.9 }),
  draft: accept(CREATE, { generate: 0.9 }),
  compose: accept(CREATE, { generate: 0.9 }),
  launch: accept(RUN, { create: 0.8 }),
  fire: { ...RUN, trigger: 1, test: 0.7, resend: 0.6 },
  ship: { publish: 1, create: 0.9, merge: 0.6 },
  lgtm: { approve: 1 },
  okay: { approve: 1 },
  retain: { keep: 1 },
  land: { merge: 1 },
  boot: { remove: 1, delete: 0.8 },
  ok: { approve: 1 },
  endorse: { approve: 1 },
  freeze: accept(CREATE, { lock: 0.6 }),
  unfreeze: { delete: 1, remove: 0.9, unlock: 0.6 },
  lint: { validate: 1, check: 0.9, verify: 0.8 },
  gc: { start: 1, run: 0.8 },
  repack: { start: 1, run: 0.8 },
};

/**
 * What a verb implies about its object beside the operation: commenting adds a note, reacting an emoji.
 * (A verb's other synonyms are not searched: "change" as a verb is not a diff.)
 */
export const VERB_OBJECTS: Record<string, string[]> = {
  rename: ['name', 'title'],
  comment: ['note', 'discussion', 'comment'],
  reply: ['note', 'discussion', 'reply'],
  respond: ['note', 'discussion', 'reply'],
  react: ['emoji', 'reaction'],
  log: ['time', 'spent'],
  spend: ['time', 'spent'],
  estimate: ['time', 'estimate'],
  schedule: ['schedule'],
  watch: ['subscribe'],
  unwatch: ['unsubscribe'],
  pause: ['pause', 'active'],
  unpause: ['resume', 'pause', 'active'],
  resume: ['resume', 'pause', 'active'],
  suspend: ['pause', 'block', 'active'],
  toggle: ['toggle', 'active'],
  flip: ['toggle', 'active'],
  switch: ['toggle', 'active'],
  rollout: ['rollout', 'strategy'],
  upvote: ['emoji', 'reaction'],
  downvote: ['emoji', 'reaction'],
  like: ['emoji', 'reaction', 'star'],
  heart: ['emoji', 'reaction'],
  thumbsup: ['emoji', 'reaction'],
  thumbsdown: ['emoji', 'reaction'],
  unlike: ['emoji', 'reaction', 'star'],
  unfollow: ['unsubscribe'],
  unmute: ['subscribe'],
  freeze: ['freeze'],
  stamp: ['tag', 'version'],
  deploy: ['deployment', 'environment'],
  redeploy: ['deployment', 'deploy'],
  audit: ['audit', 'event'],
  clone: ['fork'],
  notify: ['integration', 'notification'],
  mirror: ['mirror'],
  reassign: ['assignee'],
  retitle: ['title'],
  recolor: ['color'],
  spent: ['time', 'spent'],
  paste: ['snippet'],
  drain: ['storage', 'all'],
  report: ['status'],
  impersonate: ['impersonation', 'token'],
  recolour: ['color'],
  unfreeze: ['freeze'],
  lint: ['lint', 'yaml', 'ci'],
  gc: ['housekeeping', 'garbage'],
  repack: ['housekeeping', 'repack'],
  undelete: ['deletion', 'restore'],
  recover: ['deletion', 'restore'],
};

/**
 * Verbs that undo a state: with a state named after them ("restore the archived project", "lift the ban"),
 * the operation undoing that state (unarchive, unban) answers.
 */
export const REVERSING_VERBS = new Set([
  'restore',
  'undo',
  'revert',
  'reverse',
  'lift',
  'reactivate',
  'recover',
]);

/** Words anywhere in a request that ask for an operation of their own: doing it "again" retries. */
export const OPERATION_HINTS: Record<string, Weights> = {
  again: { retry: 1, resend: 0.8 },
  // "merge automatically when the pipeline succeeds": setting auto-merge is merging.
  automerge: { merge: 0.9 },
  automatically: { merge: 0.6 },
};

/**
 * Scopes wider than a project: an action for one ("List group webhooks") answers a request that names no
 * scope less well than the project's own, which is what people mean by default.
 */
export const WIDER_SCOPES: Record<string, number> = { group: 0.85, instance: 0.8 };

/** Words that open a question; a question reads (who approved, what changed, how many...). */
export const QUESTION_WORDS = new Set([
  'who',
  'whom',
  'whose',
  'what',
  'whats',
  'which',
  'when',
  'where',
  'why',
  'how',
  'is',
  'are',
  'was',
  'were',
  'does',
  'did',
  'has',
  'have',
]);

/** Asked as a question or with no verb at all: a read. */
export const QUESTION = READ;

/**
 * A request without a verb up front may say it later: "the group secret needs a new value", "issue 4 should be
 * closed". After one of these words (and the fillers after it), the verb (or its participle) is the request's.
 */
export const DEFERRING_WORDS = new Set([
  'needs',
  'need',
  'should',
  'must',
  'wants',
  'ought',
  'has',
  'have',
  'can',
  'shouldn',
  'mustn',
]);
export const DEFERRED_FILLERS = new Set([
  'to',
  'be',
  'get',
  'gets',
  'got',
  'a',
  'an',
  'the',
  'been',
  'also',
  'now',
  'really',
  'just',
  'only',
]);
/** "Pipeline 9 is stuck, kill it": a verb before one of these, later in a verbless request, is its verb. */
export const PRONOUNS = new Set(['it', 'them', 'this', 'that', 'those', 'these', 'him', 'her']);
/** "Needs a new value", "needs new members": what is there gets changed. */
export const NEW_THING = accept(UPDATE, { rotate: 0.7, renew: 0.7 });
export const NEW_WORDS = new Set(['new', 'another', 'more', 'different', 'fresh']);
/** "No longer needs", "no longer depends on": undoing or removing what was there. */
export const NO_LONGER = accept(DELETE, { unlink: 0.9, unassign: 0.9, unprotect: 0.8, revoke: 0.8 });

/**
 * Verbs after which a request states what its thing must become ("MR 5 should target develop", "the snippet
 * needs to be public"): a state that is no operation of its own asks for the thing to be changed.
 */
export const OBLIGING_WORDS = new Set(['should', 'must', 'ought', 'needs', 'need', 'shouldn', 'mustn']);
/** What a verbless request asks when it says what its thing must become: a change of it. */
export const CHANGED = UPDATE;
/**
 * Words of a verbless request that say its thing changes ("the due date moves to Friday", "the title becomes
 * Fix login", "dave is now a developer", "develop instead of main", "issue 40 belongs in the other project").
 */
export const CHANGE_WORDS: Record<string, Weights> = {
  becomes: UPDATE,
  become: UPDATE,
  changes: UPDATE,
  changed: UPDATE,
  gets: accept(UPDATE, { add: 0.6 }),
  instead: UPDATE,
  moves: accept(kind('update', 0.9), { move: 1, transfer: 1 }),
  moved: accept(kind('update', 0.9), { move: 1, transfer: 1 }),
  belongs: { move: 1, transfer: 1, update: 0.6 },
};
/** "X is now Y", "are now": said after one of these, "now" states the thing's new value. */
export const COPULAS = new Set(['is', 'are', 'was', 'were', 'be', 'been']);
/**
 * Words saying a thing is done with ("the webhook is not needed anymore", "the variable is obsolete", "the token
 * leaked"; "needs to go"): it is removed, as with "no longer".
 */
export const GONE_WORDS = new Set([
  'obsolete',
  'unused',
  'unneeded',
  'redundant',
  'dead',
  'leaked',
  'compromised',
  'gone',
  // Made by mistake: undone.
  'mistake',
  'accident',
  'accidentally',
  'mistakenly',
]);
/**
 * Words saying a thing is not as it should be ("the title of issue 7 is wrong", "issue 30 is not a bug
 * anymore"): it is changed.
 */
export const WRONG_WORDS = new Set(['wrong', 'incorrect', 'outdated', 'misspelled', 'inaccurate', 'anymore']);
/** States a thing is said to be in that ask for a change ("milestone 5 is finished", "pipeline 31 is stuck"). */
export const STATE_CHANGES: Record<string, Weights> = {
  done: CLOSE,
  finished: CLOSE,
  complete: CLOSE,
  completed: CLOSE,
  resolved: CLOSE,
  fixed: CLOSE,
  over: CLOSE,
  stuck: { cancel: 1, stop: 0.9, retry: 0.5 },
  hanging: { cancel: 1, stop: 0.9, retry: 0.5 },
  hung: { cancel: 1, stop: 0.9, retry: 0.5 },
};
/** Someone said to leave ("frank leaves the group", "bob left the company") is removed. */
export const LEAVING_WORDS = new Set(['leaves', 'left', 'quits', 'quit']);
/** A verb said late that asks to be rid of its thing ("needs to go", "can go away"). */
export const GOING_WORDS = new Set(['go', 'away', 'gone']);
/** After a copula, "not" and one of these: the thing is done with ("is not needed", "are not used"). */
export const NOT_NEEDED = new Set(['needed', 'used', 'required', 'wanted']);
/** A verbless request for "a thing" or "an thing" ("an epic for the payments rework"): one is made. */
export const NEW_ONE = CREATE;
/** Words after which the next one is a name given, not a word to search ("a branch called hotfix"). */
export const NAMING_WORDS = new Set(['called', 'named', 'titled']);

/** "How many": a count first. */
export const HOW_MANY = accept(READ, { count: 1 });

/** Politeness and framing before the verb: "please", "I want to", "can you", "help me"... */
export const LEAD_IN = new Set([
  'please',
  'pls',
  'plz',
  'i',
  'id',
  'we',
  'want',
  'wanna',
  'need',
  'would',
  'to',
  'can',
  'could',
  'you',
  'help',
  'me',
  'us',
  'lets',
  'let',
  'go',
  'ahead',
  'and',
  'just',
  'quickly',
  'also',
  'now',
  // "I'd like to know how many...", "wondering who...": the question follows.
  'know',
  'wondering',
]);

/** Words that carry no meaning for the search. */
export const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'to',
  'in',
  'on',
  'at',
  'our',
  'your',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'is',
  'are',
  'be',
  'and',
  'or',
  'with',
  'by',
  'from',
  'into',
  'onto',
  'i',
  'do',
  'does',
  'did',
  'please',
  'can',
  'you',
  'some',
  'me',
  'we',
  'us',
  'so',
  'as',
  'about',
  'any',
  'there',
  'then',
  'them',
  'they',
  'was',
  'were',
  'which',
  'what',
  'whats',
  'who',
  'how',
  'when',
  'why',
  'where',
  'will',
  'would',
  'should',
  'want',
  'need',
  'using',
  'via',
  'up',
  'have',
  'has',
  'had',
  'use',
  'used',
  'details',
  'info',
  'information',
]);

/**
 * Names of things whose first word is also a verb: a request that starts with one names the thing ("deploy keys
 * of the project"), it does not ask to deploy.
 */
export const THING_NAMES = [
  'deploy key',
  'deploy token',
  'push rule',
  'push mirror',
  'pull mirror',
  'merge train',
  'run log',
  'release note',
  'release link',
  'build log',
  'audit log',
  'import status',
  'export status',
  // Another platform's names for merge requests and pipelines.
  'pull request',
  'workflow run',
];

/** Words that hint rather than name: they count this much. */
export const WEAK_WORDS: Record<string, number> = { me: 0.8, my: 0.8, all: 0.2, every: 0.2 };

/** States a list is filtered by ("list open issues", "failed pipelines"): they narrow the list, not name it. */
export const STATE_WORDS = new Set([
  'open',
  'opened',
  'closed',
  'merged',
  'failed',
  'failing',
  'running',
  'pending',
  'active',
  'archived',
  'locked',
  'recent',
  'stale',
  'successful',
]);

/** Words that ask for many things, as a plural does: a list answers them. */
export const MANY_WORDS = new Set(['all', 'every', 'history', 'log', 'report', 'feed']);

/**
 * Everyday names for what the catalog calls otherwise: searched as the catalog's words, the word as typed
 * counting less (a CI/CD secret is a variable, not the secret of an upload link).
 */
export const CATALOG_NAMES: Record<string, string[]> = {
  ticket: ['issue'],
  bug: ['issue'],
  secret: ['variable'],
  stargazer: ['starrer'],
  everyone: ['member', 'user'],
  everybody: ['member', 'user'],
  profile: ['user'],
  story: ['issue'],
  stories: ['issue'],
  incident: ['issue'],
  defect: ['issue'],
  folks: ['member', 'user'],
  colleague: ['member'],
  colleagues: ['member'],
  coworker: ['member'],
  coworkers: ['member'],
  collaborator: ['member'],
  collaborators: ['member'],
  docs: ['wiki'],
  documentation: ['wiki'],
  inbox: ['todo'],
  sprint: ['iteration'],
  sprints: ['iteration'],
  kanban: ['board'],
  gist: ['snippet'],
  bot: ['service account'],
  bots: ['service account'],
  gists: ['snippet'],
  executor: ['runner'],
  executors: ['runner'],
  subtask: ['task', 'child'],
  subtasks: ['task', 'child'],
  org: ['group'],
  orgs: ['group'],
  organization: ['group'],
  organisation: ['group'],
};

/**
 * The catalog's words for the everyday names of things and of what happened to them. The words on the
 * right are searched beside the word itself (at a lower weight than the word as typed).
 */
export const SYNONYMS: Record<string, string[]> = {
  pull: ['merge'],
  ci: ['pipeline', 'ci'],
  cicd: ['ci', 'pipeline'],
  build: ['pipeline', 'job'],
  builds: ['pipeline', 'job'],
  repository: ['project', 'repository'],
  task: ['issue', 'work item'],
  comment: ['note', 'discussion', 'comment'],
  comments: ['note', 'discussion', 'comment'],
  thread: ['discussion', 'thread'],
  threads: ['discussion', 'thread'],
  conversation: ['discussion'],
  reply: ['note', 'discussion', 'reply'],
  emoji: ['emoji', 'reaction'],
  reaction: ['emoji', 'react'],
  reacted: ['emoji', 'react'],
  banner: ['broadcast', 'message'],
  banners: ['broadcast', 'message'],
  log: ['trace', 'log'],
  logs: ['trace', 'log'],
  output: ['trace', 'log'],
  console: ['trace', 'log'],
  fail: ['trace', 'failed'],
  failed: ['failed', 'trace'],
  failing: ['failed'],
  contents: ['file', 'raw', 'content'],
  content: ['file', 'raw', 'content'],
  folder: ['tree', 'directory'],
  directory: ['tree', 'directory'],
  // The top of a repository's tree.
  root: ['tree', 'directory'],
  browse: ['tree'],
  approved: ['approval', 'approve'],
  approver: ['approval', 'approve'],
  approvers: ['approval', 'approve'],
  approving: ['approval', 'approve'],
  reviewer: ['reviewer', 'review'],
  review: ['reviewer', 'review'],
  me: ['my', 'current'],
  myself: ['current', 'user'],
  whoami: ['current', 'user'],
  teammates: ['member'],
  people: ['member', 'user'],
  username: ['user', 'username'],
  readme: ['file'],
  dockerfile: ['file', 'dockerfile'],
  owner: ['member', 'role'],
  maintainer: ['member', 'role'],
  developer: ['member', 'role'],
  reporter: ['member', 'role'],
  guest: ['member', 'role'],
  my: ['current'],
  again: ['retry'],
  between: ['compare'],
  last: ['latest', 'last'],
  main: ['branch', 'default'],
  master: ['branch', 'default'],
  develop: ['branch'],
  makefile: ['file'],
  someone: ['member', 'user'],
  participating: ['participant'],
  participated: ['participant'],
  involved: ['participant'],
  starred: ['starrer', 'star'],
  // A variable or secret said alone is a CI/CD one (not a pipeline's or a schedule's, which say so).
  variable: ['variable', 'ci'],
  secret: ['ci'],
  env: ['environment', 'variable'],
  changes: ['diff', 'change'],
  changed: ['diff', 'change', 'compare', 'history'],
  change: ['diff', 'change'],
  diff: ['diff', 'change', 'patch'],
  diffs: ['diff', 'change'],
  patch: ['patch', 'diff', 'raw'],
  history: ['commit', 'history', 'event'],
  status: ['status', 'state'],
  webhook: ['hook', 'webhook'],
  webhooks: ['hook', 'webhook'],
  hooks: ['hook'],
  spent: ['spent', 'time'],
  minutes: ['time', 'spent'],
  hours: ['time', 'spent'],
  days: ['time'],
  due: ['due', 'date'],
  deadline: ['due', 'date'],
  close: ['close', 'closing', 'state'],
  closes: ['close', 'closing'],
  closed: ['close', 'state'],
  private: ['visibility'],
  public: ['visibility'],
  internal: ['visibility'],
  visibility: ['visibility'],
  unsigned: ['sign', 'signature', 'commit'],
  signed: ['signature', 'sign'],
  binary: ['asset', 'link', 'package'],
  asset: ['asset', 'link'],
  assets: ['asset', 'link'],
  deployed: ['deployment', 'deploy'],
  notifications: ['notification', 'subscribe'],
  notified: ['notification', 'subscribe'],
  notification: ['notification'],
  schedule: ['schedule'],
  yaml: ['yaml', 'ci'],
  todo: ['todo'],
  todos: ['todo'],
  signup: ['pending', 'user'],
  member: ['member'],
  belong: ['membership', 'member'],
  belongs: ['membership', 'member'],
  role: ['role', 'member', 'access level'],
  languages: ['language'],
  sbom: ['sbom', 'export', 'dependency'],
  instance: ['instance', 'admin'],
  connection: ['connection', 'health'],
  graph: ['orbit', 'graph'],
  tests: ['test', 'report'],
  results: ['report'],
  statistics: ['statistic'],
  stats: ['statistic'],
  housekeeping: ['housekeeping'],
  allowlist: ['allowlist', 'scope'],
  migrate: ['import', 'migration'],
  migration: ['migration', 'import'],
  order: ['reorder'],
  sort: ['reorder'],
  avatar: ['avatar'],
  picture: ['avatar'],
  photo: ['avatar'],
  committed: ['commit', 'contributor'],
  // Periods nothing should change in.
  holiday: ['freeze', 'period'],
  holidays: ['freeze', 'period'],
  weekend: ['freeze', 'period'],
  blocking: ['dependency', 'block', 'link'],
  blocked: ['dependency', 'block', 'link'],
  depend: ['dependency'],
  depends: ['dependency'],
  downstream: ['bridge', 'trigger'],
  upstream: ['mirror', 'pull'],
  mirror: ['mirror'],
  frequency: ['dora', 'metrics'],
  lead: ['dora', 'metrics'],
  available: ['exist'],
  taken: ['exist'],
  free: ['exist'],
  pending: ['pending', 'request'],
  feature: ['feature'],
  column: ['board list'],
  columns: ['board list'],
  lane: ['board list'],
  burndown: ['burndown'],
  chart: ['burndown'],
  html: ['render', 'markdown'],
  markdown: ['markdown'],
  attachment: ['upload', 'attachment'],
  // Switched on or off, paused.
  off: ['active', 'disable'],
  paused: ['pause', 'active'],
  enabled: ['active', 'enable'],
  disabled: ['active', 'disable'],
  inactive: ['active', 'pause'],
  flag: ['feature flag'],
  flags: ['feature flag'],
  rollout: ['rollout', 'strategy'],
  percentage: ['rollout', 'strategy'],
  percent: ['rollout', 'percentage'],
  half: ['rollout', 'percentage'],
  // Reactions.
  thumbsup: ['emoji', 'reaction'],
  thumbsdown: ['emoji', 'reaction'],
  thumbs: ['emoji', 'reaction'],
  upvote: ['emoji', 'reaction'],
  upvotes: ['emoji', 'reaction'],
  downvote: ['emoji', 'reaction'],
  heart: ['emoji', 'reaction'],
  smiley: ['emoji', 'reaction'],
  reactions: ['emoji', 'react'],
  award: ['emoji', 'award'],
  // Whether CI passes.
  green: ['pipeline', 'latest', 'status'],
  red: ['pipeline', 'latest', 'failed', 'status'],
  passing: ['pipeline', 'latest', 'status', 'success'],
  passes: ['pipeline', 'success'],
  passed: ['pipeline', 'success'],
  succeeds: ['pipeline', 'success'],
  succeeded: ['pipeline', 'success'],
  broken: ['pipeline', 'latest', 'failed'],
  health: ['health', 'check'],
  healthy: ['health', 'check', 'connection'],
  alive: ['health', 'check', 'connection'],
  reachable: ['health', 'check', 'connection'],
  online: ['health', 'check', 'connection'],
  // Who worked on what.
  contributed: ['contributor', 'contribution'],
  contribute: ['contributor', 'contribution'],
  contributing: ['contributor', 'contribution'],
  contributors: ['contributor'],
  committers: ['contributor', 'commit'],
  committer: ['contributor', 'commit'],
  authors: ['contributor', 'author'],
  activity: ['event', 'activity', 'contribution'],
  lately: ['event', 'recent'],
  recently: ['event', 'recent'],
  // Times a schedule runs at.
  nightly: ['schedule'],
  daily: ['schedule'],
  weekly: ['schedule'],
  hourly: ['schedule'],
  cron: ['schedule', 'cron'],
  // Automatic merging.
  automerge: ['auto', 'merge', 'automatically'],
  automatically: ['auto', 'automatically'],
  auto: ['auto', 'automatically'],
  // Chat and tracker tools are integrations.
  slack: ['integration', 'slack'],
  mattermost: ['integration', 'mattermost'],
  microsoft: ['integration'],
  discord: ['integration', 'discord'],
  jira: ['integration', 'jira'],
  datadog: ['integration', 'datadog'],
  // Kept or dropped in time.
  expire: ['expire', 'keep'],
  expiry: ['expire', 'keep'],
  forever: ['keep', 'forever'],
  // The catalog's own domains under everyday names.
  kubernetes: ['cluster', 'agent', 'kubernetes'],
  cluster: ['cluster', 'agent'],
  image: ['container', 'registry', 'image'],
  images: ['container', 'registry', 'image'],
  docker: ['container', 'registry', 'docker'],
  permissions: ['role', 'access', 'permission', 'member'],
  permission: ['role', 'access', 'permission', 'member'],
  size: ['statistic', 'storage', 'size'],
  disk: ['statistic', 'storage'],
  storage: ['storage', 'statistic'],
  hash: ['commit', 'sha'],
  backlog: ['issue'],
  // An organisation's teams are its subgroups (its people, the members of one).
  team: ['group', 'subgroup'],
  teams: ['subgroup', 'group'],
  deployments: ['deployment'],
  deploy: ['deployment'],
  // Where two histories part.
  ancestor: ['merge base'],
  diverge: ['merge base'],
  diverged: ['merge base'],
  deploys: ['deployment'],
  mentions: ['todo', 'mention'],
  // The rest.
  account: ['user', 'account'],
  down: ['health', 'check', 'connection'],
  mistakes: ['error', 'lint', 'validate'],
  errors: ['error', 'lint', 'validate'],
  ready: ['draft', 'ready'],
  wip: ['draft'],
  garbage: ['housekeeping', 'garbage'],
  deleted: ['deletion', 'restore', 'delete'],
  deletion: ['deletion', 'delete'],
  access: ['access', 'member'],
  spam: ['spam', 'block', 'ban'],
  spammer: ['spam', 'block', 'ban', 'user'],
  blocks: ['dependency', 'block', 'link'],
  related: ['link', 'related'],
  // A pipeline's run, as other tools call it.
  run: ['pipeline'],
  runs: ['pipeline'],
  workflow: ['pipeline', 'ci'],
  workflows: ['pipeline'],
  connected: ['integration', 'connection'],
  server: ['instance'],
  // Environments by their usual names.
  production: ['environment'],
  prod: ['environment', 'production'],
};
