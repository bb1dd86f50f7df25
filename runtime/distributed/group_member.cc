#include "runtime/distributed/group_member.h"

#include <algorithm>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>

#include "runtime/common/logging.h"
#include "runtime/kafka/client/bootstrap.h"

namespace connectd::distributed {

namespace asio = boost::asio;
using kafka::protocol::ApiKey;
using kafka::protocol::BrokerConnection;
using kafka::protocol::ErrorName;

namespace {
constexpr char kLogger[] = "org.apache.kafka.connect.runtime.distributed.WorkerCoordinator";
}  // namespace

absl::Status GroupMemberConfig::SetBootstrap(const std::string& bootstrap_servers) {
  absl::StatusOr<std::vector<kafka::client::BrokerAddress>> parsed =
      kafka::client::ParseBootstrapServers(bootstrap_servers);
  if (!parsed.ok()) return parsed.status();
  bootstrap.clear();
  for (auto& address : *parsed) bootstrap.emplace_back(std::move(address.host), address.port);
  return absl::OkStatus();
}

std::shared_ptr<GroupMember> GroupMember::Create(asio::io_context& io, GroupMemberConfig config,
                                                 GroupMemberListener* listener) {
  return std::shared_ptr<GroupMember>(new GroupMember(io, std::move(config), listener));
}

GroupMember::GroupMember(asio::io_context& io, GroupMemberConfig config,
                         GroupMemberListener* listener)
    : strand_(asio::make_strand(io)),
      io_(io),
      config_(std::move(config)),
      listener_(listener),
      retry_timer_(strand_),
      heartbeat_timer_(strand_),
      join_gate_timer_(strand_),
      session_timer_(strand_),
      unreachable_timer_(strand_) {}

GroupMember::~GroupMember() = default;

GroupMember::Snapshot GroupMember::snapshot() const {
  std::lock_guard lock(snapshot_mu_);
  return snapshot_;
}

void GroupMember::PublishSnapshot() {
  std::lock_guard lock(snapshot_mu_);
  snapshot_ = Snapshot{state_, generation_, member_id_, coordinator_address_, rebalances_};
}

void GroupMember::Start() {
  asio::post(strand_, [self = shared_from_this()] { self->FindCoordinator(0); });
}

void GroupMember::RequestRejoin(std::string reason) {
  asio::post(strand_, [self = shared_from_this(), reason = std::move(reason)] {
    if (self->state_ == State::kStopped) return;
    CONNECTD_LOG(kInfo, kLogger) << "Rejoining group " << self->config_.group_id << ": " << reason;
    if (self->state_ == State::kStable) {
      self->RejoinSoon();
    } else {
      self->rejoin_requested_ = true;  // after the round in progress
    }
  });
}

void GroupMember::RetryLater(std::function<void()> fn) {
  ++consecutive_failures_;
  auto backoff = std::min(config_.max_retry_backoff,
                          config_.retry_backoff * (1 << std::min(consecutive_failures_ - 1, 5)));
  retry_timer_.expires_after(backoff);
  const uint64_t round = round_;
  retry_timer_.async_wait(asio::bind_executor(
      strand_,
      [self = shared_from_this(), round, fn = std::move(fn)](boost::system::error_code ec) {
        if (ec || self->state_ == State::kStopped || round != self->round_) return;
        fn();
      }));
}

void GroupMember::FindCoordinator(size_t bootstrap_index) {
  if (state_ == State::kStopped) return;
  const auto& [host, port] = config_.bootstrap[bootstrap_index % config_.bootstrap.size()];
  if (!bootstrap_) {
    BrokerConnection::Options options{host, port, config_.security, config_.client_id,
                                      config_.request_timeout};
    bootstrap_ = BrokerConnection::Create(strand_, std::move(options));
    bootstrap_->Connect([self = shared_from_this(), bootstrap_index](absl::Status status) {
      if (self->state_ == State::kStopped) return;
      if (!status.ok()) {
        CONNECTD_LOG(kWarn, kLogger) << "Bootstrap broker unreachable: " << status.message();
        self->bootstrap_.reset();
        if (status.code() == absl::StatusCode::kUnauthenticated) {
          self->listener_->OnGroupError(status);
        }
        self->RetryLater([self, bootstrap_index] { self->FindCoordinator(bootstrap_index + 1); });
        return;
      }
      self->FindCoordinator(bootstrap_index);
    });
    return;
  }
  bootstrap_->Call<kafka::protocol::FindCoordinatorResponse>(
      ApiKey::kFindCoordinator, kafka::protocol::FindCoordinatorRequest{config_.group_id, 0},
      [self = shared_from_this(),
       bootstrap_index](absl::StatusOr<kafka::protocol::FindCoordinatorResponse> r) {
        if (self->state_ == State::kStopped) return;
        if (!r.ok()) {
          CONNECTD_LOG(kWarn, kLogger) << "FindCoordinator failed: " << r.status().message();
          self->bootstrap_.reset();
          self->RetryLater([self, bootstrap_index] { self->FindCoordinator(bootstrap_index + 1); });
          return;
        }
        if (r->error_code != kafka::protocol::Error::kNone) {
          if (r->error_code == kafka::protocol::Error::kGroupAuthorizationFailed) {
            self->listener_->OnGroupError(absl::PermissionDeniedError(
                "Not authorized to access group: " + self->config_.group_id));
          }
          CONNECTD_LOG(kDebug, kLogger) << "FindCoordinator: " << ErrorName(r->error_code);
          self->RetryLater([self, bootstrap_index] { self->FindCoordinator(bootstrap_index); });
          return;
        }
        self->OnCoordinatorFound(r->host, static_cast<uint16_t>(r->port));
      });
}

void GroupMember::OnCoordinatorFound(const std::string& host, uint16_t port) {
  coordinator_address_ = host + ":" + std::to_string(port);
  BrokerConnection::Options options{host, port, config_.security, config_.client_id,
                                    config_.request_timeout};
  coordinator_ = BrokerConnection::Create(strand_, std::move(options));
  const uint64_t round = ++round_;
  coordinator_->Connect([self = shared_from_this(), round](absl::Status status) {
    if (self->state_ == State::kStopped || round != self->round_) return;
    if (!status.ok()) {
      self->CoordinatorLost(status);
      return;
    }
    CONNECTD_LOG(kInfo, kLogger) << "Discovered group coordinator " << self->coordinator_address_
                                 << " for group " << self->config_.group_id;
    self->unreachable_timer_.cancel();
    self->unreachable_pending_ = false;
    self->Join();
  });
  PublishSnapshot();
}

void GroupMember::CoordinatorLost(const absl::Status& why) {
  if (state_ == State::kStopped) return;
  CONNECTD_LOG(kInfo, kLogger) << "Group coordinator " << coordinator_address_
                               << " is unavailable or invalid (" << why.message()
                               << "); rediscovering";
  ++round_;
  if (coordinator_) coordinator_->Close();
  coordinator_.reset();
  coordinator_address_.clear();
  heartbeat_timer_.cancel();
  session_timer_.cancel();
  // The member id and generation stay: if the session has not expired the member keeps them.
  if (state_ == State::kStable) state_ = State::kUnjoined;
  PublishSnapshot();
  if (!unreachable_pending_) {
    unreachable_pending_ = true;
    unreachable_timer_.expires_after(config_.heartbeat_interval);
    unreachable_timer_.async_wait(
        asio::bind_executor(strand_, [self = shared_from_this()](boost::system::error_code ec) {
          if (ec || self->state_ == State::kStopped || !self->unreachable_pending_) return;
          self->listener_->OnCoordinatorUnreachable(self->config_.heartbeat_interval);
        }));
  }
  RetryLater([self = shared_from_this()] { self->FindCoordinator(0); });
}

void GroupMember::RejoinSoon() {
  heartbeat_timer_.cancel();
  state_ = State::kUnjoined;
  ++round_;
  asio::post(strand_, [self = shared_from_this(), round = round_] {
    if (round == self->round_) self->Join();
  });
}

void GroupMember::Join() {
  if (state_ == State::kStopped || !coordinator_) return;
  if (state_ != State::kJoining) {
    listener_->OnJoinPrepare(generation_, member_id_);
    state_ = State::kJoining;
    PublishSnapshot();
  }
  if (!listener_->ReadyToJoin()) {
    const auto now = std::chrono::steady_clock::now();
    if (!join_gate_since_) join_gate_since_ = now;
    if (now - *join_gate_since_ < config_.rebalance_timeout) {
      join_gate_timer_.expires_after(std::chrono::milliseconds(20));
      const uint64_t round = round_;
      join_gate_timer_.async_wait(asio::bind_executor(
          strand_, [self = shared_from_this(), round](boost::system::error_code ec) {
            if (ec || self->state_ == State::kStopped || round != self->round_) return;
            self->Join();
          }));
      return;
    }
    CONNECTD_LOG(kWarn, kLogger) << "Joining group " << config_.group_id
                                 << " although the previous round is still being applied after "
                                    "rebalance.timeout.ms";
  }
  join_gate_since_.reset();
  rejoin_requested_ = false;
  kafka::protocol::JoinGroupRequest request;
  request.group_id = config_.group_id;
  request.session_timeout_ms = static_cast<int32_t>(config_.session_timeout.count());
  request.rebalance_timeout_ms = static_cast<int32_t>(config_.rebalance_timeout.count());
  request.member_id = member_id_;
  request.protocol_type = config_.protocol_type;
  request.protocols = listener_->JoinMetadata();
  const uint64_t round = ++round_;
  coordinator_->Call<kafka::protocol::JoinGroupResponse>(
      ApiKey::kJoinGroup, request,
      [self = shared_from_this(), round](absl::StatusOr<kafka::protocol::JoinGroupResponse> r) {
        if (self->state_ == State::kStopped || round != self->round_) return;
        if (!r.ok()) return self->CoordinatorLost(r.status());
        if (r->error_code == kafka::protocol::Error::kMemberIdRequired) {
          self->member_id_ = r->member_id;  // KIP-394: join again with the id
          return self->Join();
        }
        if (r->error_code != kafka::protocol::Error::kNone) {
          if (!self->HandleGroupError(r->error_code, "JoinGroup")) {
            self->RetryLater([self] { self->Join(); });
          }
          return;
        }
        self->OnJoined(*r, r->protocol_name.value_or(""));
      });
}

bool GroupMember::HandleGroupError(int16_t code, const char* request) {
  using kafka::protocol::Error;
  using kafka::protocol::ErrorName;
  switch (static_cast<Error>(code)) {
    case Error::kRebalanceInProgress:
      RejoinSoon();
      return true;
    case Error::kUnknownMemberId:
    case Error::kIllegalGeneration:
    case Error::kFencedInstanceId:
      CONNECTD_LOG(kInfo, kLogger) << request << " failed with " << ErrorName(code)
                                   << "; resetting the member id and rejoining";
      member_id_.clear();
      generation_ = -1;
      RejoinSoon();
      return true;
    case Error::kNotCoordinator:
    case Error::kCoordinatorNotAvailable:
    case Error::kCoordinatorLoadInProgress:
      CoordinatorLost(absl::UnavailableError(ErrorName(code)));
      return true;
    default: {
      absl::Status error = absl::FailedPreconditionError(
          std::string(request) + " for group " + config_.group_id + " failed: " + ErrorName(code));
      CONNECTD_LOG(kError, kLogger) << error.message();
      listener_->OnGroupError(error);
      return false;
    }
  }
}

void GroupMember::OnJoined(const kafka::protocol::JoinGroupResponse& response,
                           const std::string& protocol) {
  if (response.skip_assignment) {
    // Static membership only; connectd never sets group.instance.id.
    listener_->OnGroupError(absl::InternalError("JoinGroup answered with SkipAssignment"));
    RetryLater([self = shared_from_this()] { self->Join(); });
    return;
  }
  member_id_ = response.member_id;
  generation_ = response.generation_id;
  protocol_ = protocol;
  kafka::protocol::SyncGroupRequest sync;
  sync.group_id = config_.group_id;
  sync.generation_id = generation_;
  sync.member_id = member_id_;
  sync.protocol_type = config_.protocol_type;
  sync.protocol_name = protocol_;
  if (response.leader == member_id_) {
    absl::StatusOr<std::map<std::string, std::string>> assignments =
        listener_->PerformAssignment(generation_, member_id_, protocol_, response.members);
    if (!assignments.ok()) {
      CONNECTD_LOG(kError, kLogger) << "Assignment failed: " << assignments.status().message();
      RetryLater([self = shared_from_this()] { self->Join(); });
      return;
    }
    for (auto& [member, bytes] : *assignments) sync.assignments.push_back({member, bytes});
  }
  Sync(std::move(sync));
}

void GroupMember::Sync(kafka::protocol::SyncGroupRequest request) {
  const uint64_t round = ++round_;
  const int32_t generation = generation_;
  coordinator_->Call<kafka::protocol::SyncGroupResponse>(
      ApiKey::kSyncGroup, std::move(request),
      [self = shared_from_this(), round,
       generation](absl::StatusOr<kafka::protocol::SyncGroupResponse> r) {
        if (self->state_ == State::kStopped || round != self->round_) return;
        if (!r.ok()) return self->CoordinatorLost(r.status());
        if (r->error_code != kafka::protocol::Error::kNone) {
          if (!self->HandleGroupError(r->error_code, "SyncGroup")) {
            self->RetryLater([self] { self->Join(); });
          }
          return;
        }
        self->consecutive_failures_ = 0;
        self->state_ = State::kStable;
        ++self->rebalances_;
        self->last_heartbeat_ok_ = std::chrono::steady_clock::now();
        self->PublishSnapshot();
        CONNECTD_LOG(kInfo, kLogger)
            << "Joined group " << self->config_.group_id << " at generation " << generation
            << " as " << self->member_id_ << " (" << self->protocol_ << ")";
        self->listener_->OnJoinComplete(generation, self->member_id_, self->protocol_,
                                        r->assignment);
        if (self->state_ != State::kStable) return;  // the listener asked to rejoin
        if (self->rejoin_requested_) return self->RejoinSoon();
        self->ScheduleHeartbeat();
      });
}

void GroupMember::ScheduleHeartbeat() {
  heartbeat_timer_.expires_after(config_.heartbeat_interval);
  const uint64_t round = round_;
  heartbeat_timer_.async_wait(asio::bind_executor(
      strand_, [self = shared_from_this(), round](boost::system::error_code ec) {
        if (ec || self->state_ != State::kStable || round != self->round_) return;
        self->Heartbeat();
      }));
}

void GroupMember::Heartbeat() {
  const uint64_t round = round_;
  // No answer by the end of the session: the coordinator has given up on this member (or is
  // cut off); stop waiting for the request timeout, as Java's heartbeat thread does.
  session_timer_.expires_at(last_heartbeat_ok_ + config_.session_timeout);
  session_timer_.async_wait(asio::bind_executor(
      strand_, [self = shared_from_this(), round](boost::system::error_code ec) {
        if (ec || self->state_ != State::kStable || round != self->round_) return;
        self->CoordinatorLost(absl::DeadlineExceededError(
            "session timed out without receiving a heartbeat response"));
      }));
  coordinator_->Call<kafka::protocol::HeartbeatResponse>(
      ApiKey::kHeartbeat,
      kafka::protocol::HeartbeatRequest{config_.group_id, generation_, member_id_, std::nullopt},
      [self = shared_from_this(), round](absl::StatusOr<kafka::protocol::HeartbeatResponse> r) {
        if (self->state_ != State::kStable || round != self->round_) return;
        if (!r.ok()) return self->CoordinatorLost(r.status());
        if (r->error_code != kafka::protocol::Error::kNone) {
          if (r->error_code == kafka::protocol::Error::kRebalanceInProgress) {
            CONNECTD_LOG(kInfo, kLogger) << "Rebalance started in group " << self->config_.group_id;
          }
          if (!self->HandleGroupError(r->error_code, "Heartbeat")) self->ScheduleHeartbeat();
          return;
        }
        self->session_timer_.cancel();
        self->last_heartbeat_ok_ = std::chrono::steady_clock::now();
        self->ScheduleHeartbeat();
      });
}

void GroupMember::Stop(std::function<void()> done) {
  asio::post(strand_, [self = shared_from_this(), done = std::move(done)]() mutable {
    if (self->state_ == State::kStopped) return done();
    const bool member = !self->member_id_.empty() && self->coordinator_ != nullptr;
    self->state_ = State::kStopped;
    ++self->round_;
    self->retry_timer_.cancel();
    self->heartbeat_timer_.cancel();
    self->join_gate_timer_.cancel();
    self->session_timer_.cancel();
    self->unreachable_timer_.cancel();
    self->PublishSnapshot();
    auto close = [self, done = std::move(done)]() {
      if (self->coordinator_) self->coordinator_->Close();
      if (self->bootstrap_) self->bootstrap_->Close();
      self->coordinator_.reset();
      self->bootstrap_.reset();
      done();
    };
    if (!member) return close();
    CONNECTD_LOG(kInfo, kLogger) << "Leaving group " << self->config_.group_id << " as "
                                 << self->member_id_;
    self->coordinator_->Call<kafka::protocol::LeaveGroupResponse>(
        ApiKey::kLeaveGroup,
        kafka::protocol::LeaveGroupRequest{self->config_.group_id, self->member_id_, std::nullopt,
                                           "the consumer is being closed"},
        [close](absl::StatusOr<kafka::protocol::LeaveGroupResponse>) { close(); });
  });
}

}  // namespace connectd::distributed
